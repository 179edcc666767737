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
import type { Comments, Engagement, PostMetrics, ReadTarget, RemoteComment, RemotePost } from '../engagement.ts';
import type { AdapterDeps, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { linkedinUrls, restHeaders } from './config.ts';
import { linkedinOk } from './errors.ts';
import { permalinkOf } from './publish.ts';

type Obj = Record<string, unknown>;

/** LinkedIn refuses a comment's text beyond this (FIELD_LENGTH_TOO_LONG). */
export const LINKEDIN_COMMENT_MAX = 1250;
/** The largest page the Posts and Comments finders serve. */
const MAX_COUNT = 100;
/** Bounds a runaway paging loop. */
const MAX_PAGES = 20;
/** URNs per batch call (socialMetadata, share statistics, people). */
const BATCH = 50;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const iso = (ms: unknown): string | null =>
  typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null;

/** Rest.li 2.0 `List(…)` for a query string: the list syntax as is, each value percent-encoded. */
const restliList = (values: readonly string[]): string => `List(${values.map(encodeURIComponent).join(',')})`;

/** A member's own post statistics. */
export const MEMBER_ANALYTICS_SCOPE = 'r_member_postAnalytics';
type MemberMetric = 'IMPRESSION' | 'MEMBERS_REACHED' | 'RESHARE' | 'REACTION' | 'COMMENT';

/** The members' reading permission, closed to new apps. */
export const MEMBER_READ_SCOPE = 'r_member_social';
export const MEMBER_READ_REFUSAL =
  "LinkedIn lets an app read a member's own posts and their comments only with r_member_social, which it grants to selected partners alone; Herald reads and answers the comments of organization pages (r_organization_social). Add r_member_social to HERALD_LINKEDIN_SCOPES if LinkedIn granted it to this app.";

/** A post's commentary as members read it: LinkedIn's "little" text without escapes, hashtag templates or mention syntax. */
export function plainCommentary(little: string): string {
  return little
    .replace(/\{hashtag\|\\#\|([^}]+)\}/g, '#$1')
    .replace(/@\[([^\]]*)\]\(urn:li:[A-Za-z]+:[A-Za-z0-9_-]+\)/g, '$1')
    .replace(/\\(.)/g, '$1');
}

function typeOf(content: Obj): { type: RemotePost['type']; images: string[]; video: string | null } {
  if (Array.isArray(obj(content.multiImage).images)) {
    return { type: 'carousel', images: list(obj(content.multiImage).images).map((i) => String(i.id)), video: null };
  }
  const media = str(obj(content.media).id);
  if (media?.startsWith('urn:li:video:')) return { type: 'video', images: [], video: media };
  if (media?.startsWith('urn:li:image:')) return { type: 'image', images: [media], video: null };
  return { type: 'text', images: [], video: null };
}

interface Counts {
  likes: number;
  comments: number;
  closed: boolean;
}

interface Statistics {
  shares: number;
  impressions: number;
  reach: number;
}

function toPost(
  webBase: string,
  p: Obj,
  counts: Counts | undefined,
  stats: Statistics | undefined,
  imageUrls: Map<string, string>,
): RemotePost {
  const urn = String(p.id);
  const content = typeOf(obj(p.content));
  const author = str(p.author);
  return {
    postId: urn,
    commentary: typeof p.commentary === 'string' ? plainCommentary(p.commentary) : null,
    publishedAt: iso(p.publishedAt) ?? iso(p.createdAt),
    type: content.type,
    // Download URLs as LinkedIn gave them (they expire; a refresh reads new ones); null where it gave none.
    images: content.images.map((urn) => ({ url: imageUrls.get(urn) ?? null })),
    video: content.video ? { videoUrl: null, thumbnailUrl: null } : null,
    permalink: permalinkOf(webBase, urn),
    sourcePageId: author?.startsWith('urn:li:organization:') ? author.slice('urn:li:organization:'.length) : null,
    metrics: {
      likes: counts?.likes ?? 0,
      comments: counts?.comments ?? 0,
      shares: stats?.shares ?? 0,
      impressions: stats?.impressions ?? 0,
      ...(stats ? { reach: stats.reach } : {}),
    },
    ...(counts?.closed ? { commentsDisabled: true } : {}),
  };
}

/** Like Promise.all, but waits for every call before throwing the first failure, so none is left in flight. */
async function allOrFirstError<T>(calls: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

function countsOf(meta: Obj): Counts {
  const reactions = Object.values(obj(meta.reactionSummaries)).reduce<number>((n, r) => n + num(obj(r).count), 0);
  return { likes: reactions, comments: num(obj(meta.commentSummary).count), closed: meta.commentsState === 'CLOSED' };
}

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

  async function counts(token: string, urns: string[]): Promise<Map<string, Counts>> {
    const out = new Map<string, Counts>();
    for (let i = 0; i < urns.length; i += BATCH) {
      const body = await get(token, `${apiBase}/rest/socialMetadata?ids=${restliList(urns.slice(i, i + BATCH))}`);
      for (const [urn, meta] of Object.entries(obj(body.results))) out.set(urn, countsOf(obj(meta)));
    }
    return out;
  }

  /** One figure of a member's own post (memberCreatorPostAnalytics, lifetime total). */
  async function memberFigure(token: string, urn: string, queryType: MemberMetric): Promise<number> {
    const kind = urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share';
    const query = `q=entity&entity=(${kind}:${encodeURIComponent(urn)})&queryType=${queryType}&aggregation=TOTAL`;
    const body = await get(token, `${apiBase}/rest/memberCreatorPostAnalytics?${query}`);
    return list(body.elements).reduce((n, e) => n + num(e.count), 0);
  }

  async function memberFigures<T extends MemberMetric>(
    token: string,
    urn: string,
    types: readonly T[],
  ): Promise<Record<T, number>> {
    const values = await allOrFirstError(types.map((t) => memberFigure(token, urn, t)));
    return Object.fromEntries(types.map((t, i) => [t, values[i]!])) as Record<T, number>;
  }

  const mayReadMemberAnalytics = (tokens: TokenSet): boolean =>
    !tokens.scopes || tokens.scopes.includes(MEMBER_ANALYTICS_SCOPE);

  /**
   * Shares, impressions and reach per post: an organization's share statistics (one call per 50 posts), or a member's
   * post analytics (three calls per post). Without the scope either needs, the posts read 0 rather than fail.
   */
  async function statistics(tokens: TokenSet, author: string, urns: string[]): Promise<Map<string, Statistics>> {
    const out = new Map<string, Statistics>();
    if (urns.length === 0) return out;
    if (author.startsWith('urn:li:person:')) {
      if (!mayReadMemberAnalytics(tokens)) return out;
      for (const urn of urns) {
        const f = await memberFigures(tokens.accessToken, urn, ['RESHARE', 'IMPRESSION', 'MEMBERS_REACHED'] as const);
        out.set(urn, { shares: f.RESHARE, impressions: f.IMPRESSION, reach: f.MEMBERS_REACHED });
      }
      return out;
    }
    if (!author.startsWith('urn:li:organization:')) return out;
    // Without the admin scope LinkedIn would refuse the call; the posts then read 0 impressions rather than fail.
    if (tokens.scopes && !tokens.scopes.includes('rw_organization_admin')) return out;
    for (let i = 0; i < urns.length; i += BATCH) {
      const chunk = urns.slice(i, i + BATCH);
      const shares = chunk.filter((u) => u.startsWith('urn:li:share:'));
      const ugcPosts = chunk.filter((u) => u.startsWith('urn:li:ugcPost:'));
      const params = [`q=organizationalEntity`, `organizationalEntity=${encodeURIComponent(author)}`];
      if (shares.length) params.push(`shares=${restliList(shares)}`);
      if (ugcPosts.length) params.push(`ugcPosts=${restliList(ugcPosts)}`);
      const body = await get(
        tokens.accessToken,
        `${apiBase}/rest/organizationalEntityShareStatistics?${params.join('&')}`,
      );
      for (const e of list(body.elements)) {
        const urn = str(e.share) ?? str(e.ugcPost);
        const s = obj(e.totalShareStatistics);
        if (urn)
          out.set(urn, {
            shares: num(s.shareCount),
            impressions: num(s.impressionCount),
            reach: num(s.uniqueImpressionsCount),
          });
      }
    }
    return out;
  }

  async function withMetrics(tokens: TokenSet, author: string, posts: Obj[]): Promise<RemotePost[]> {
    const urns = posts.map((p) => String(p.id));
    const images = posts.flatMap((p) => typeOf(obj(p.content)).images);
    const [c, s, u] = (await allOrFirstError<Map<string, Counts> | Map<string, Statistics> | Map<string, string>>([
      counts(tokens.accessToken, urns),
      statistics(tokens, author, urns),
      imageUrls(tokens.accessToken, images),
    ])) as [Map<string, Counts>, Map<string, Statistics>, Map<string, string>];
    return posts.map((p) => toPost(webBase, p, c.get(String(p.id)), s.get(String(p.id)), u));
  }

  /** Download URLs of images by URN, one batch call per 50 (GET /rest/images?ids=List(…)); ones LinkedIn refuses are left out. */
  async function imageUrls(token: string, urns: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(urns)];
    for (let i = 0; i < unique.length; i += BATCH) {
      const body = await get(token, `${apiBase}/rest/images?ids=${restliList(unique.slice(i, i + BATCH))}`);
      for (const [urn, image] of Object.entries(obj(body.results))) {
        const url = str(obj(image).downloadUrl);
        if (url) out.set(urn, url);
      }
    }
    return out;
  }

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

  function toComment(c: Obj, who: Map<string, string>): RemoteComment {
    const actor = str(c.actor) ?? '';
    const urn = str(c.commentUrn) ?? String(c.id);
    const parent = str(c.parentComment);
    const summary = obj(c.commentsSummary);
    return {
      id: urn,
      parentId: parent,
      text: str(obj(c.message).text) ?? '',
      authorName: who.get(actor) ?? actor,
      authorId: actor || null,
      authorAvatarUrl: null,
      createdAt: iso(obj(c.created).time),
      likeCount: num(obj(c.likesSummary).totalLikes),
      replyCount: num(summary.aggregatedTotalComments) || num(summary.totalFirstLevelComments),
      // A reply is answered under its first-level comment (threads are two levels deep).
      refs: { post: str(c.object) ?? '', ...(parent ? { parentComment: parent } : {}) },
    };
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

  const comments: Comments = {
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
