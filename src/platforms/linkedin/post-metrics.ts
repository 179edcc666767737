// The numbers of LinkedIn posts (engagement.ts): reactions and comment counts from socialMetadata, shares,
// impressions and reach from an organization's share statistics or a member's post analytics, and the download URLs
// of the posts' images.
import type { RemotePost } from '../engagement.ts';
import type { TokenSet } from '../types.ts';
import {
  BATCH,
  MEMBER_ANALYTICS_SCOPE,
  allOrFirstError,
  countsOf,
  list,
  num,
  obj,
  restliList,
  str,
  toPost,
  typeOf,
} from './read-shapes.ts';
import type { Counts, LinkedinGet, MemberMetric, Obj, Statistics } from './read-shapes.ts';

/** The metric reads over `get`, against the API at `apiBase`; posts' permalinks on `webBase`. */
export function linkedinMetrics(get: LinkedinGet, apiBase: string, webBase: string) {
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

  /**
   * Download URLs of images by URN, one batch call per 50 (GET /rest/images?ids=List(…)); ones LinkedIn refuses are
   * left out.
   */
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

  return { mayReadMemberAnalytics, memberFigures, withMetrics };
}
