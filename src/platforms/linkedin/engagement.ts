// LinkedIn's read side through the versioned Community Management API.
// - Recent posts: GET /rest/posts?q=author; their reactions and comment counts from one batch
//   GET /rest/socialMetadata?ids=List(…) (commentsState CLOSED = comments turned off); for an organization, shares,
//   impressions and unique impressions from GET /rest/organizationalEntityShareStatistics (rw_organization_admin and
//   the ADMINISTRATOR role; posts with no activity are left out of its answer and read 0).
// - Comments: GET /rest/socialActions/{post urn}/comments, replies with the comment URN in the path, commenters'
//   names from GET /v2/people?ids=List((id:…)) (members) and /rest/organizationsLookup (organizations). A reply is a
//   comment created under the comment (POST /rest/socialActions/{comment urn}/comments with parentComment), as the
//   organization that owns the post or as the member; threads are two levels deep.
// - Scopes: an organization's posts and comments need r_organization_social. A member's own posts and comments need
//   r_member_social, which LinkedIn grants only to selected partners and Herald does not ask for: personal reads are
//   refused here with that reason unless the grant carries the scope (an operator whose app has it adds it to
//   HERALD_LINKEDIN_SCOPES). A member's own post statistics (impressions, members reached, reshares, reactions,
//   comments) come from GET /rest/memberCreatorPostAnalytics with r_member_postAnalytics, which Herald asks for: one
//   call per figure and post, and the only read of a member's post that works without r_member_social (getMetrics).
// - Image posts carry their images' download URLs (one GET /rest/images?ids=List(…) per 50 images).
import type { Engagement, PostMetrics, ReadTarget, RemotePost } from '../engagement.ts';
import type { AdapterDeps, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { linkedinComments } from './comments.ts';
import { linkedinUrls, restHeaders } from './config.ts';
import { linkedinOk } from './errors.ts';
import { linkedinMetrics } from './post-metrics.ts';
import {
  MAX_COUNT,
  MAX_PAGES,
  MEMBER_ANALYTICS_SCOPE,
  MEMBER_READ_REFUSAL,
  MEMBER_READ_SCOPE,
  list,
  str,
} from './read-shapes.ts';
import type { Obj } from './read-shapes.ts';

export {
  LINKEDIN_COMMENT_MAX,
  MEMBER_ANALYTICS_SCOPE,
  MEMBER_READ_REFUSAL,
  MEMBER_READ_SCOPE,
  plainCommentary,
} from './read-shapes.ts';

export function linkedinEngagement(deps: AdapterDeps): Engagement {
  const { apiBase, webBase } = linkedinUrls(deps);

  async function get(token: string, url: string, query?: Record<string, string | number>): Promise<Obj> {
    const res = await deps.http.request('linkedin', { url, ...(query ? { query } : {}), headers: restHeaders(token) });
    return linkedinOk(res, 'api', deps.clock);
  }

  /** Refuses reading a member's own posts or comments without r_member_social, before any call. */
  function checkReadable(tokens: TokenSet, target: ReadTarget): void {
    const dest = target.destination;
    if (dest && dest.kind !== 'personal' && dest.kind !== 'organization') {
      throw new PlatformError(
        'linkedin',
        'unsupported',
        `linkedin posts belong to a member or an organization, not to a ${dest.kind}`,
      );
    }
    if (dest?.kind !== 'organization' && tokens.scopes && !tokens.scopes.includes(MEMBER_READ_SCOPE)) {
      throw new PlatformError('linkedin', 'permission', MEMBER_READ_REFUSAL, { code: 'r_member_social_required' });
    }
  }

  /** The author URN of a read target (an organization, or the member with r_member_social). */
  async function authorOf(tokens: TokenSet, target: ReadTarget): Promise<string> {
    checkReadable(tokens, target);
    const dest = target.destination;
    if (dest?.kind === 'organization') {
      const id = dest.id.replace(/^urn:li:organization:/, '');
      if (!/^\d+$/.test(id))
        throw new PlatformError('linkedin', 'invalid_content', `linkedin organization id ${dest.id} is not numeric`);
      return `urn:li:organization:${id}`;
    }
    if (dest && dest.id !== 'me' && dest.id !== '')
      return dest.id.startsWith('urn:li:person:') ? dest.id : `urn:li:person:${dest.id}`;
    return memberUrn(tokens);
  }

  async function memberUrn(tokens: TokenSet): Promise<string> {
    const res = await deps.http.request('linkedin', {
      url: `${apiBase}/v2/userinfo`,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const sub = str(linkedinOk(res, 'api', deps.clock).sub);
    if (!sub) throw new PlatformError('linkedin', 'transient', 'linkedin userinfo answered without a member id');
    return `urn:li:person:${sub}`;
  }

  const { mayReadMemberAnalytics, memberFigures, withMetrics } = linkedinMetrics(get, apiBase, webBase);

  async function getPost(tokens: TokenSet, p: ReadTarget & { postId: string }): Promise<RemotePost | null> {
    const author = await authorOf(tokens, p);
    const res = await deps.http.request('linkedin', {
      url: `${apiBase}/rest/posts/${encodeURIComponent(p.postId)}`,
      headers: restHeaders(tokens.accessToken),
    });
    if (res.status === 404) return null;
    const post = linkedinOk(res, 'api', deps.clock);
    const [read] = await withMetrics(tokens, str(post.author) ?? author, [post]);
    return read ?? null;
  }

  const comments = linkedinComments(deps, { get, apiBase, checkReadable, authorOf, memberUrn });

  return {
    async listPosts(tokens, p) {
      const author = await authorOf(tokens, p);
      const posts: Obj[] = [];
      const limit = Math.max(1, p.limit);
      for (let page = 0; page < MAX_PAGES && posts.length < limit; page++) {
        const count = Math.min(MAX_COUNT, limit - posts.length);
        const body = await get(tokens.accessToken, `${apiBase}/rest/posts`, {
          author,
          q: 'author',
          count,
          start: posts.length,
          sortBy: 'CREATED',
        });
        const got = list(body.elements);
        posts.push(...got);
        if (got.length < count) break;
      }
      const read = await withMetrics(tokens, author, posts.slice(0, limit));
      return read.sort((a, b) => Date.parse(b.publishedAt ?? '') - Date.parse(a.publishedAt ?? ''));
    },

    getPost,

    comments,

    async getMetrics(tokens, p): Promise<PostMetrics | null> {
      if (p.destination?.kind === 'organization') {
        const post = await getPost(tokens, p);
        return post ? post.metrics : null;
      }
      // A member's own post: its statistics need only r_member_postAnalytics, not the closed r_member_social.
      if (!mayReadMemberAnalytics(tokens)) {
        throw new PlatformError(
          'linkedin',
          'permission',
          `LinkedIn gives a member's post statistics only with ${MEMBER_ANALYTICS_SCOPE}, which this connection was not granted; reconnect to grant it.`,
          { code: 'r_member_postAnalytics_required' },
        );
      }
      try {
        const f = await memberFigures(tokens.accessToken, p.postId, [
          'REACTION',
          'COMMENT',
          'RESHARE',
          'IMPRESSION',
          'MEMBERS_REACHED',
        ] as const);
        return {
          likes: f.REACTION,
          comments: f.COMMENT,
          shares: f.RESHARE,
          impressions: f.IMPRESSION,
          reach: f.MEMBERS_REACHED,
        };
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'not_found') return null;
        throw err;
      }
    },

    async deletePost(tokens, p) {
      const res = await deps.http.request('linkedin', {
        method: 'DELETE',
        url: `${apiBase}/rest/posts/${encodeURIComponent(p.postId)}`,
        headers: restHeaders(tokens.accessToken),
      });
      // Already gone is what deleting wanted.
      if (res.status === 404) return;
      linkedinOk(res, 'api', deps.clock);
    },
  };
}
