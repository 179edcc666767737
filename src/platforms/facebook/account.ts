// The connected Facebook user, the Pages they manage and the Instagram professional accounts linked to those Pages.
// Page tokens are not read here: they live in TokenSet.extra (auth.ts), never in the identity.
import type { AccountIdentity, AdapterDeps, Destination, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { FACEBOOK_GRAPH_VERSION, facebookUrls } from './config.ts';
import { facebookOk } from './errors.ts';
import { isRecord, num, required, str } from '../meta/graph.ts';
import { listPages } from './pages.ts';

const USER_FIELDS = 'id,name,first_name,last_name,picture.type(large)';
const PAGE_FIELDS = 'id,name,username,category,tasks,link,followers_count,fan_count,picture.type(large)';
const IG_FIELDS = 'instagram_business_account{id,username,name,profile_picture_url}';

function pictureUrl(value: unknown): string | null {
  return isRecord(value) && isRecord(value.data) ? str(value.data.url) : null;
}

interface LinkedInstagram {
  id: string;
  username: string | null;
  name: string | null;
  profile_picture_url: string | null;
}

function linkedInstagram(value: unknown): LinkedInstagram | null {
  if (!isRecord(value)) return null;
  const id = str(value.id);
  if (!id) return null;
  return {
    id,
    username: str(value.username),
    name: str(value.name),
    profile_picture_url: str(value.profile_picture_url),
  };
}

export function facebookAccount(deps: AdapterDeps): (tokens: TokenSet) => Promise<AccountIdentity> {
  const { graphBase } = facebookUrls(deps);

  /**
   * Asking for a Page's Instagram account may need instagram_basic, which Facebook Login does not request; without it
   * the Pages are read again without that field rather than lost.
   */
  async function pagesOf(token: string): Promise<Record<string, unknown>[]> {
    try {
      return await listPages(deps, token, `${PAGE_FIELDS},${IG_FIELDS}`);
    } catch (err) {
      if (!(err instanceof PlatformError) || err.kind !== 'permission') throw err;
    }
    try {
      return await listPages(deps, token, PAGE_FIELDS);
    } catch (err) {
      // pages_show_list declined: the account is connected but has no Page to post to.
      if (err instanceof PlatformError && err.kind === 'permission') return [];
      throw err;
    }
  }

  return async (tokens) => {
    const res = await deps.http.request('facebook', {
      url: `${graphBase}/${FACEBOOK_GRAPH_VERSION}/me`,
      query: { fields: USER_FIELDS },
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const me = facebookOk(res);
    const id = required('facebook', me.id, 'the user id');
    const name = str(me.name) ?? '';
    const avatar = pictureUrl(me.picture);
    const pages = await pagesOf(tokens.accessToken);

    const destinations: Destination[] = [];
    const slicePages: Record<string, unknown>[] = [];
    for (const page of pages) {
      const pageId = str(page.id);
      if (!pageId) continue;
      const pageName = str(page.name) ?? pageId;
      const picture = pictureUrl(page.picture);
      const tasks = Array.isArray(page.tasks) ? page.tasks.filter((t): t is string => typeof t === 'string') : null;
      const ig = linkedInstagram(page.instagram_business_account);
      const meta = {
        username: str(page.username),
        category: str(page.category),
        link: str(page.link),
        tasks,
        followers_count: num(page.followers_count),
        fan_count: num(page.fan_count),
        instagram_business_account_id: ig?.id ?? null,
      };
      destinations.push({ kind: 'page', id: pageId, name: pageName, avatarUrl: picture, meta });
      if (ig) {
        destinations.push({
          kind: 'business_account',
          id: ig.id,
          name: ig.username ?? ig.name ?? ig.id,
          avatarUrl: ig.profile_picture_url,
          meta: { network: 'instagram', page_id: pageId, username: ig.username, name: ig.name },
        });
      }
      slicePages.push({
        page_id: pageId,
        page_name: pageName,
        picture_url: picture,
        ...meta,
        instagram_business_account: ig,
        // Pages reached through /me/accounts are ones the user picked in the dialog, not Business-Manager-only ones.
        is_business_manager: false,
        support_status: null,
        availability_message: null,
      });
    }

    return {
      id,
      name,
      username: null,
      avatarUrl: avatar,
      destinations,
      slice: {
        profile: {
          name: str(me.name),
          first_name: str(me.first_name),
          last_name: str(me.last_name),
          profile_picture_url: avatar,
        },
        pages: slicePages,
      },
    };
  };
}
