// The connected Threads profile (/me). One profile per token: Threads has no pages, so no destinations.
import type { AccountIdentity, AdapterDeps, TokenSet } from '../types.ts';
import { isRecord, num, required, str } from '../meta/graph.ts';
import { THREADS_API_VERSION, threadsUrls } from './config.ts';
import { threadsOk } from './errors.ts';

const FIELDS = 'id,username,name,threads_profile_picture_url,threads_biography,is_verified';

/** `total_value.value` for totals; some answers give a `values` series instead, whose last point is the current one. */
function metricValue(body: Record<string, unknown>, name: string): number | null {
  const rows = Array.isArray(body.data) ? body.data.filter(isRecord) : [];
  const row = rows.find((r) => r.name === name);
  if (!row) return null;
  if (isRecord(row.total_value)) return num(row.total_value.value);
  const values = Array.isArray(row.values) ? row.values.filter(isRecord) : [];
  const last = values[values.length - 1];
  return last ? num(last.value) : null;
}

export function threadsAccount(deps: AdapterDeps): (tokens: TokenSet) => Promise<AccountIdentity> {
  const { graphBase } = threadsUrls(deps);
  const api = `${graphBase}/${THREADS_API_VERSION}`;

  /**
   * /me has no follower count; the user insights endpoint does (threads_manage_insights). It is decoration: a profile
   * without a linked Instagram account, a missing permission or a hiccup leaves it null rather than failing the read.
   */
  async function followers(userId: string, token: string): Promise<number | null> {
    try {
      const res = await deps.http.request('threads', {
        url: `${api}/${encodeURIComponent(userId)}/threads_insights`,
        query: { metric: 'followers_count' },
        headers: { authorization: `Bearer ${token}` },
      });
      return metricValue(threadsOk(res), 'followers_count');
    } catch (err) {
      deps.logger.debug(
        { platform: 'threads', err: err instanceof Error ? err.message : String(err) },
        'threads follower count unavailable',
      );
      return null;
    }
  }

  return async (tokens) => {
    const res = await deps.http.request('threads', {
      url: `${api}/me`,
      query: { fields: FIELDS },
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const me = threadsOk(res);
    const id = required('threads', me.id, 'the user id');
    const username = str(me.username);
    const avatar = str(me.threads_profile_picture_url);
    const followersCount = await followers(id, tokens.accessToken);
    return {
      id,
      name: str(me.name) ?? username ?? id,
      username,
      avatarUrl: avatar,
      destinations: [],
      slice: {
        profile: {
          username,
          full_name: str(me.name),
          biography: str(me.threads_biography),
          followers_count: followersCount,
          // The Threads API exposes none of these for the own profile.
          following_count: null,
          posts_count: null,
          is_verified: typeof me.is_verified === 'boolean' ? me.is_verified : null,
          website_url: null,
          created_at: null,
          profile_picture_url: avatar,
        },
      },
    };
  };
}
