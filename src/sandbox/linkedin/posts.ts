// Posts API: POST /rest/posts (201, empty body, URN in x-restli-id), GET /rest/posts/{urn}, the author finder
// GET /rest/posts?q=author and DELETE /rest/posts/{urn}.
import { isObj, jsonBody, queryParams } from '../core/http.ts';
import { randomDigits } from '../core/ids.ts';
import { objectsOf, putPost, text } from '../core/objects.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, ErrorAnswer, Simulator } from '../core/route.ts';
import type { JsonObject, JsonValue, ObjectRecord } from '../core/types.ts';
import { apiError, duplicatePost } from './errors.ts';
import { checkContent } from './content.ts';
import { parseLittleText } from './little-text.ts';
import { actorProblem, decodeUrn, inputError, pathObject, restAuth, urnKind } from './rest.ts';

const RESOURCE = 'partnerApiPostsExternal';
const MAX_COMMENTARY = 3000;
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
const VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'];

const json = (value: unknown): JsonValue =>
  value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);

function view(post: ObjectRecord): JsonObject {
  const at = Date.parse(post.createdAt);
  const out: JsonObject = {
    id: post.id,
    author: post.author ?? null,
    commentary: post.commentary ?? '',
    visibility: post.visibility ?? 'PUBLIC',
    distribution: post.distribution ?? null,
    lifecycleState: 'PUBLISHED',
    lifecycleStateInfo: { isEditedByAuthor: false },
    isReshareDisabledByAuthor: post.isReshareDisabledByAuthor ?? false,
    createdAt: at,
    lastModifiedAt: at,
    publishedAt: at,
  };
  if (post.content) out.content = post.content;
  if (post.reshareContext) out.reshareContext = post.reshareContext;
  return out;
}

function duplicateOf(call: Call, author: string, commentary: string, content: JsonValue): ObjectRecord | undefined {
  const since = call.ctx.nowMs() - DUPLICATE_WINDOW_MS;
  const key = JSON.stringify(content);
  return [...call.slice.posts.values()].find(
    (p) =>
      p.author === author &&
      p.commentarySent === commentary &&
      JSON.stringify(p.content ?? null) === key &&
      Date.parse(p.createdAt) > since,
  );
}

/** Every body rule of a create, in the order LinkedIn reports them; returns the normalized fields or the error. */
function validate(
  call: Call,
  body: Record<string, unknown>,
  author: string,
):
  | ErrorAnswer
  | { commentary: string; fields: JsonObject; media: string[]; kind: string; plain: string; truncated: boolean } {
  const reshare = isObj(body.reshareContext) ? body.reshareContext : null;
  const commentary = body.commentary;
  if (commentary === undefined && !reshare) {
    return inputError('MISSING_FIELD', '/commentary', 'Field /commentary is required when the post is not a reshare');
  }
  if (commentary !== undefined && typeof commentary !== 'string')
    return inputError('INVALID_VALUE_FOR_FIELD', '/commentary', '/commentary must be a string');
  const raw = commentary ?? '';
  if (raw.length > MAX_COMMENTARY) {
    return inputError(
      'FIELD_LENGTH_TOO_LONG',
      '/commentary',
      `Length of /commentary (${raw.length}) exceeds the maximum allowed length of ${MAX_COMMENTARY}`,
    );
  }
  const little = parseLittleText(raw);
  if (!little.ok) return inputError('INVALID_VALUE_FOR_FIELD', '/commentary', little.message);
  const visibility = body.visibility;
  if (typeof visibility !== 'string')
    return inputError('MISSING_FIELD', '/visibility', 'Field /visibility is required');
  if (!VISIBILITIES.includes(visibility) || (visibility === 'CONNECTIONS' && urnKind(author) !== 'person')) {
    return inputError(
      'INVALID_VALUE_FOR_FIELD',
      '/visibility',
      `Invalid visibility ${visibility} for author ${author}`,
    );
  }
  if (!isObj(body.distribution)) return inputError('MISSING_FIELD', '/distribution', 'Field /distribution is required');
  if (!['MAIN_FEED', 'NONE'].includes(String(body.distribution.feedDistribution))) {
    return inputError(
      'INVALID_VALUE_FOR_FIELD',
      '/distribution/feedDistribution',
      'feedDistribution must be MAIN_FEED or NONE',
    );
  }
  if (body.lifecycleState !== 'PUBLISHED') {
    return inputError(
      'INVALID_VALUE_FOR_FIELD',
      '/lifecycleState',
      'lifecycleState must be PUBLISHED on create (no drafts or scheduling)',
    );
  }
  if (reshare && (typeof reshare.parent !== 'string' || !call.slice.posts.has(reshare.parent))) {
    return inputError('INVALID_URN_ID', '/reshareContext/parent', `Post ${String(reshare.parent)} does not exist`);
  }
  const content = checkContent(call, author, body.content);
  if ('status' in content) return content;
  const fields: JsonObject = {
    commentary: little.stored,
    commentarySent: raw,
    visibility,
    distribution: json(body.distribution),
    isReshareDisabledByAuthor: body.isReshareDisabledByAuthor === true,
    content: json(body.content),
  };
  if (reshare) fields.reshareContext = json(reshare);
  return {
    commentary: raw,
    fields,
    media: content.media,
    kind: content.kind,
    plain: little.plain,
    truncated: little.truncated,
  };
}

export function registerLinkedInPosts(sim: Simulator): void {
  addRoute(sim, {
    method: 'POST',
    url: '/rest/posts',
    ops: ['publish'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const body = jsonBody(req);
      if (!body)
        return sendAnswer(
          reply,
          apiError(400, 'BAD_REQUEST', 'The request body must be a JSON object (Content-Type: application/json)'),
        );
      const author = body.author;
      if (typeof author !== 'string' || !author)
        return sendAnswer(reply, inputError('MISSING_FIELD', '/author', 'Field /author is required'));
      const denied = actorProblem(auth, author, 'write', RESOURCE, 'CREATE');
      if (denied) return sendAnswer(reply, denied);
      const checked = validate(call, body, author);
      if ('status' in checked) return sendAnswer(reply, checked);
      const earlier = duplicateOf(call, author, checked.commentary, checked.fields.content ?? null);
      if (earlier) return sendAnswer(reply, duplicatePost(earlier.id));
      // Video, document and multi-image posts come back as ugcPost URNs, the rest as shares; adapters must take both.
      const family = ['video', 'multiImage', 'poll'].includes(checked.kind) ? 'ugcPost' : 'share';
      const urn = `urn:li:${family}:7${randomDigits(19).slice(1)}`;
      putPost(
        call,
        req,
        {
          id: urn,
          accountId: auth.account.id,
          author,
          text: checked.plain,
          media: checked.media,
          permalink: `${call.ctx.base('linkedin')}/feed/update/${urn}/`,
        },
        {
          ...checked.fields,
          contentKind: checked.kind,
          commentaryTruncated: checked.truncated,
          lifecycleState: 'PUBLISHED',
        },
      );
      return reply
        .code(201)
        .header('x-restli-id', urn)
        .header('location', `/rest/posts/${encodeURIComponent(urn)}`)
        .send();
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/posts/:urn',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = pathObject(req, reply, call, 'posts');
      if (!found) return reply;
      const denied = actorProblem(found.auth, text(found.record.author), 'read', RESOURCE, 'GET');
      return denied ? sendAnswer(reply, denied) : reply.send(view(found.record));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/posts',
    ops: ['status'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = restAuth(req, reply, call);
      if (!auth) return reply;
      const q = queryParams(req);
      if (q.q !== 'author' || !q.author)
        return sendAnswer(reply, apiError(400, 'ILLEGAL_ARGUMENT', 'Supported finder: q=author&author={urn}'));
      const author = decodeUrn(q.author);
      const denied = actorProblem(auth, author, 'read', RESOURCE, 'FINDER');
      if (denied) return sendAnswer(reply, denied);
      const start = Math.max(0, Number(q.start ?? 0) || 0);
      const count = Math.min(100, Math.max(1, Number(q.count ?? 10) || 10));
      const posts = objectsOf(call, 'posts', auth.account.id)
        .filter((p) => p.author === author)
        .reverse();
      const elements = posts.slice(start, start + count).map(view);
      return reply.send({ paging: { start, count, links: [], total: posts.length }, elements });
    },
  });

  addRoute(sim, {
    method: 'DELETE',
    url: '/rest/posts/:urn',
    ops: ['delete'],
    surface: 'api',
    handler: (req, reply, call) => {
      const found = pathObject(req, reply, call, 'posts');
      if (!found) return reply;
      const denied = actorProblem(found.auth, text(found.record.author), 'write', RESOURCE, 'DELETE');
      if (denied) return sendAnswer(reply, denied);
      call.slice.posts.delete(found.urn);
      return reply.code(204).send();
    },
  });
}
