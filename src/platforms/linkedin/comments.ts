// Comments on LinkedIn posts (engagement.ts): GET /rest/socialActions/{urn}/comments under a post or a comment, the
// commenters' names from /v2/people and /rest/organizationsLookup, and replies created under the first-level comment.
import type { Comments, ReadTarget, RemoteComment } from '../engagement.ts';
import type { AdapterDeps, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { restHeaders } from './config.ts';
import { linkedinOk } from './errors.ts';
import {
  BATCH,
  LINKEDIN_COMMENT_MAX,
  MAX_COUNT,
  MAX_PAGES,
  list,
  num,
  obj,
  restliList,
  str,
  toComment,
} from './read-shapes.ts';
import type { LinkedinGet, Obj } from './read-shapes.ts';

/** What the comments need of the engagement: its GET, its read check and the authors a reply is made as. */
export interface CommentReads {
  get: LinkedinGet;
  apiBase: string;
  checkReadable(tokens: TokenSet, target: ReadTarget): void;
  authorOf(tokens: TokenSet, target: ReadTarget): Promise<string>;
  memberUrn(tokens: TokenSet): Promise<string>;
}

export function linkedinComments(deps: AdapterDeps, r: CommentReads): Comments {
  const { get, apiBase, checkReadable, authorOf, memberUrn } = r;

  /** Names of the members and organizations behind comments, by actor URN (unknown ones are left out). */
  async function names(token: string, actors: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const people = [
      ...new Set(actors.filter((a) => a.startsWith('urn:li:person:')).map((a) => a.slice('urn:li:person:'.length))),
    ];
    const orgs = [
      ...new Set(
        actors.filter((a) => a.startsWith('urn:li:organization:')).map((a) => a.slice('urn:li:organization:'.length)),
      ),
    ];
    for (let i = 0; i < people.length; i += BATCH) {
      const ids = `List(${people
        .slice(i, i + BATCH)
        .map((id) => `(id:${encodeURIComponent(id)})`)
        .join(',')})`;
      const res = await deps.http.request('linkedin', {
        url: `${apiBase}/v2/people?ids=${ids}`,
        headers: { authorization: `Bearer ${token}`, 'x-restli-protocol-version': '2.0.0' },
      });
      for (const [key, p] of Object.entries(obj(linkedinOk(res, 'api', deps.clock).results))) {
        const id = /^\(id:(.+)\)$/.exec(key)?.[1] ?? str(obj(p).id);
        const full = [str(obj(p).localizedFirstName), str(obj(p).localizedLastName)].filter(Boolean).join(' ');
        if (id && full) out.set(`urn:li:person:${id}`, full);
      }
    }
    if (orgs.length) {
      const body = await get(token, `${apiBase}/rest/organizationsLookup?ids=${restliList(orgs)}`);
      for (const [id, o] of Object.entries(obj(body.results))) {
        const name = str(obj(o).localizedName);
        if (name) out.set(`urn:li:organization:${id}`, name);
      }
    }
    return out;
  }

  /** Comments under a post or a comment URN, in LinkedIn's order, at most `limit`, with their authors' names. */
  async function commentsUnder(token: string, urn: string, limit: number): Promise<RemoteComment[]> {
    const items: Obj[] = [];
    for (let page = 0; page < MAX_PAGES && items.length < limit; page++) {
      const count = Math.min(MAX_COUNT, limit - items.length);
      const body = await get(token, `${apiBase}/rest/socialActions/${encodeURIComponent(urn)}/comments`, {
        start: items.length,
        count,
      });
      const got = list(body.elements);
      items.push(...got);
      const total = num(obj(body.paging).total);
      if (got.length < count || items.length >= total) break;
    }
    const who = await names(
      token,
      items.map((c) => str(c.actor) ?? ''),
    );
    return items.slice(0, limit).map((c) => toComment(c, who));
  }

  return {
    textLimit: { max: LINKEDIN_COMMENT_MAX, unit: 'utf16' },

    async list(tokens, p) {
      checkReadable(tokens, p);
      const all = await commentsUnder(tokens.accessToken, p.postId, Math.max(1, p.limit));
      // Newest first, whatever order LinkedIn served them in.
      return { comments: all.sort((a, b) => Date.parse(b.createdAt ?? '') - Date.parse(a.createdAt ?? '')) };
    },

    async replies(tokens, p) {
      checkReadable(tokens, p);
      return commentsUnder(tokens.accessToken, p.commentId, Math.max(1, p.limit));
    },

    async comment(tokens, p) {
      // As the organization whose post it is, or as the member on their own post (w_member_social writes; reading is
      // not needed).
      const org = p.destination?.kind === 'organization' ? p.destination.id.replace(/^urn:li:organization:/, '') : null;
      if (org !== null && !/^\d+$/.test(org))
        throw new PlatformError('linkedin', 'invalid_content', `linkedin organization id ${org} is not numeric`);
      const actor = org !== null ? `urn:li:organization:${org}` : await memberUrn(tokens);
      const res = await deps.http.request('linkedin', {
        method: 'POST',
        url: `${apiBase}/rest/socialActions/${encodeURIComponent(p.postId)}/comments`,
        headers: restHeaders(tokens.accessToken),
        json: { actor, object: p.postId, message: { text: p.text } },
      });
      const body = linkedinOk(res, 'api', deps.clock);
      const id = str(body.commentUrn);
      if (!id)
        throw new PlatformError('linkedin', 'transient', 'linkedin created the comment but named no comment URN');
      return { commentId: id };
    },

    async reply(tokens, p) {
      // As the organization whose post it is, or as the member on their own post.
      const actor = p.destination?.kind === 'organization' ? await authorOf(tokens, p) : await memberUrn(tokens);
      const parent = p.refs?.parentComment ?? p.commentId;
      const res = await deps.http.request('linkedin', {
        method: 'POST',
        url: `${apiBase}/rest/socialActions/${encodeURIComponent(parent)}/comments`,
        headers: restHeaders(tokens.accessToken),
        json: { actor, object: p.postId, message: { text: p.text }, parentComment: parent },
      });
      const body = linkedinOk(res, 'api', deps.clock);
      const activity = /^urn:li:comment:\((urn:li:[A-Za-z]+:\d+),/.exec(parent)?.[1];
      const id =
        str(body.commentUrn) ??
        (activity && str(res.headers.get('x-restli-id'))
          ? `urn:li:comment:(${activity},${res.headers.get('x-restli-id')})`
          : null);
      if (!id)
        throw new PlatformError('linkedin', 'transient', 'linkedin created the comment but named no comment URN');
      return { replyId: id };
    },
  };
}
