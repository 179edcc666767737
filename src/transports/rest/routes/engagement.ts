// The engagement routes (contract-gaps §4, §6): the posts read model, one post refreshed, its numbers over time and
// its deletion; the comments inbox, one post's comments, a comment's replies and replying, the member's read state;
// analytics.
// Each concern registers its own routes (engagement-posts, -comments, -replies, -analytics); this plugin composes them.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { analyticsRoutes } from './engagement-analytics.ts';
import { engagementKit } from './engagement-common.ts';
import { commentsRoutes } from './engagement-comments.ts';
import { postsRoutes } from './engagement-posts.ts';
import { readRoutes } from './engagement-reads.ts';
import { repliesRoutes } from './engagement-replies.ts';

export async function engagementRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const kit = engagementKit(ctx);
  postsRoutes(app, kit);
  commentsRoutes(app, kit);
  repliesRoutes(app, kit);
  readRoutes(app, kit);
  analyticsRoutes(app, kit);
}
