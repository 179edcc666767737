// Comments in the LinkedIn simulator (engagement.ts): simulated commenters, and GET|POST
// /rest/socialActions/{urn}/comments under a post or a first-level comment, written as the member or an organization
// they administer.
import { assetsOf } from '../core/accounts.ts';
import type { SandboxContext } from '../core/context.ts';
import { commentsDisabled, commentsOn, declareEngagement, putComment, repliesTo } from '../core/engagement.ts';
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import { randomDigits, seededAlnum } from '../core/ids.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Simulator } from '../core/route.ts';
import type { JsonObject, ObjectRecord } from '../core/types.ts';
import { apiError, notFound } from './errors.ts';
import { actorProblem, decodeUrn, inputError, restAuth } from './rest.ts';
import {
  COMMENT_URN,
  MAX_COMMENT_CHARS,
  activityOf,
  commentView,
  isError,
  pageOf,
  postOf,
  readProblem,
} from './social-views.ts';

const COMMENTS = 'socialActionsComments';

export function declareLinkedInEngagement(ctx: SandboxContext): void {
  declareEngagement(ctx, 'linkedin', {
    commentId: (_ctx, post) => `urn:li:comment:(${activityOf(post.id)},7${randomDigits(18)})`,
    userId: (n) => `urn:li:person:${seededAlnum(`linkedin:commenter:${n}`, 10)}`,
    // A simulated member is known by the name they comment under, so /v2/people names each consistently.
    extra: (_ctx, _post, _parent, _id, input): JsonObject =>
      input.fromAccount
        ? {}
        : { authorId: `urn:li:person:${seededAlnum(`linkedin:commenter:${input.author.name}`, 10)}` },
  });
}

/** The comment routes: a post's comments or a comment's replies, and a new comment or reply. */
export function registerLinkedInComments(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/rest/socialActions/:urn/comments',
    ops: ['comments'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const target = decodeUrn((req.params as { urn: string }).urn);
      const post = postOf(call, target);
      if (!post) return sendAnswer(reply, notFound(target));
      const problem = readProblem(auth, post, COMMENTS, 'GET_ALL');
      if (problem) return sendAnswer(reply, problem);
      const paging = pageOf(queryParams(req));
      if (isError(paging)) return sendAnswer(reply, paging);
      // A post's comments newest first; a comment's replies in the order they were written.
      const all = COMMENT_URN.test(target) ? repliesTo(call.slice, target) : commentsOn(call.slice, post.id);
      const elements = all.slice(paging.start, paging.start + paging.count).map((c) => commentView(c, post, call));
      return reply.send({
        paging: { start: paging.start, count: paging.count, total: all.length, links: [] },
        elements,
      });
    },
  });

  addRoute(sim, {
    method: 'POST',
    url: '/rest/socialActions/:urn/comments',
    ops: ['reply'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const target = decodeUrn((req.params as { urn: string }).urn);
      const post = postOf(call, target);
      if (!post) return sendAnswer(reply, notFound(target));
      const body = jsonBody(req);
      if (!body)
        return sendAnswer(
          reply,
          apiError(400, 'BAD_REQUEST', 'The request body must be a JSON object (Content-Type: application/json)'),
        );
      const actor = typeof body.actor === 'string' ? body.actor : '';
      if (!actor) return sendAnswer(reply, inputError('MISSING_FIELD', '/actor', 'Field /actor is required'));
      const problem = actorProblem(auth, actor, 'write', COMMENTS, 'CREATE');
      if (problem) return sendAnswer(reply, problem);
      const object = typeof body.object === 'string' ? body.object : '';
      if (object !== post.id && object !== activityOf(post.id)) {
        return sendAnswer(
          reply,
          inputError(
            'INVALID_VALUE_FOR_FIELD',
            '/object',
            `Field /object must be the post ${post.id} the comment is on`,
          ),
        );
      }
      const message = isObj(body.message) ? body.message : {};
      const said = typeof message.text === 'string' ? message.text : '';
      if (!said.trim())
        return sendAnswer(
          reply,
          inputError('INVALID_VALUE_BLANK_FIELD', '/message/text', 'Field /message/text must not be blank'),
        );
      if (said.length > MAX_COMMENT_CHARS) {
        return sendAnswer(
          reply,
          inputError(
            'FIELD_LENGTH_TOO_LONG',
            '/message/text',
            `Length of /message/text (${said.length}) exceeds the maximum allowed length of ${MAX_COMMENT_CHARS}`,
          ),
        );
      }
      let parent: ObjectRecord | undefined;
      const parentUrn =
        typeof body.parentComment === 'string' ? body.parentComment : COMMENT_URN.test(target) ? target : undefined;
      if (parentUrn !== undefined) {
        parent = call.slice.comments.get(parentUrn);
        if (!parent || parent.postId !== post.id || (COMMENT_URN.test(target) && target !== parentUrn)) {
          return sendAnswer(
            reply,
            inputError('INVALID_URN_ID', '/parentComment', `Comment ${parentUrn} does not exist on ${post.id}`),
          );
        }
        // Two levels only: a reply answers a first-level comment.
        if (parent.parentId !== null)
          return sendAnswer(
            reply,
            inputError(
              'INVALID_VALUE_FOR_FIELD',
              '/parentComment',
              'Nested comments may only reply to a first-level comment',
            ),
          );
      }
      if (commentsDisabled(post))
        return sendAnswer(reply, apiError(403, 'ACCESS_DENIED', `Comments are disabled on ${post.id}`, 100));
      const org = /^urn:li:organization:(\d+)$/.exec(actor);
      const name = org
        ? (assetsOf(auth.account, 'organization').find((o) => o.id === org[1])?.name ?? actor)
        : auth.account.name;
      const stored = putComment(call.ctx, 'linkedin', post, parent, {
        text: said,
        author: { id: actor, name, avatarUrl: null },
        fromAccount: true,
      });
      const view = commentView(stored, post, call);
      return reply.code(201).header('x-restli-id', String(view.id)).send(view);
    },
  });
}
