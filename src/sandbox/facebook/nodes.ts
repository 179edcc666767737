// Graph node types the Facebook simulator serves: User, Page and the Instagram professional account linked to a Page.
import { assetsOf, findAsset, str } from '../core/accounts.ts';
import { graphList, project } from '../core/graph.ts';
import type { FieldSel, NodeType } from '../core/graph.ts';
import type { Call } from '../core/route.ts';
import type { AccountRecord, AssetRecord, JsonObject, JsonValue, TokenRecord } from '../core/types.ts';
import { pageTokenFor } from './page-tokens.ts';

export interface Viewer {
  call: Call;
  token: TokenRecord;
  account: AccountRecord;
}

function picture(url: string, sel: FieldSel): JsonValue {
  const size = sel.args.type === 'large' ? 200 : sel.args.type === 'normal' ? 100 : 50;
  const data: JsonObject = { height: size, is_silhouette: false, url, width: size };
  if (!sel.sub) return { data };
  return {
    data: project(
      {
        typeName: 'ProfilePictureSource',
        defaults: [],
        fields: {
          height: () => size,
          width: () => size,
          url: () => url,
          is_silhouette: () => false,
        },
      },
      sel.sub,
    ),
  };
}

export function igUserNode(ig: AssetRecord): NodeType {
  const f = ig.fields;
  return {
    typeName: 'IGUser',
    defaults: ['id'],
    fields: {
      id: () => ig.id,
      ig_id: () => f.ig_id ?? null,
      username: () => str(f.username),
      name: () => ig.name,
      biography: () => str(f.biography),
      website: () => str(f.website),
      profile_picture_url: () => str(f.profile_picture_url),
      followers_count: () => f.followers_count ?? 0,
      follows_count: () => f.follows_count ?? 0,
      media_count: () => f.media_count ?? 0,
    },
  };
}

export function pageNode(v: Viewer, page: AssetRecord): NodeType {
  const f = page.fields;
  const igId = str(f.instagram_business_account);
  const viaUser = v.token.kind !== 'page';
  return {
    typeName: 'Page',
    defaults: ['name', 'id'],
    fields: {
      id: () => page.id,
      name: () => page.name,
      username: () => str(f.username),
      category: () => str(f.category),
      category_list: () => [{ id: '2200', name: str(f.category) }],
      link: () => `https://www.facebook.com/${page.id}`,
      tasks: () => (viaUser ? (f.tasks ?? []) : undefined),
      access_token: () => (viaUser ? pageTokenFor(v.call, v.token, page).token : v.token.token),
      followers_count: () => f.followers_count ?? 0,
      fan_count: () => f.fan_count ?? 0,
      picture: (sel) => picture(str(f.picture), sel),
      instagram_business_account: (sel) => {
        const ig = igId ? v.account.assets.find((a) => a.id === igId) : undefined;
        return ig ? project(igUserNode(ig), sel.sub) : undefined;
      },
    },
  };
}

export function pagesList(v: Viewer, sel: FieldSel | null, limit?: string): JsonObject {
  const type = (p: AssetRecord) => pageNode(v, p);
  const fields = sel?.sub ?? null;
  const defaults = ['access_token', 'category', 'category_list', 'name', 'id', 'tasks'];
  const items = assetsOf(v.account, 'page').map((p) =>
    project(type(p), fields ?? defaults.map((name) => ({ name, args: {}, sub: null }))),
  );
  return graphList(items, sel?.args.limit ?? limit);
}

export function userNode(v: Viewer): NodeType {
  const a = v.account;
  return {
    typeName: 'User',
    defaults: ['name', 'id'],
    fields: {
      id: () => a.id,
      name: () => a.name,
      first_name: () => a.fields.first_name ?? '',
      last_name: () => a.fields.last_name ?? '',
      short_name: () => a.fields.first_name ?? '',
      email: () => (v.token.scopes.includes('email') ? a.email : undefined),
      picture: (sel) => picture(a.avatarUrl, sel),
      accounts: (sel) => pagesList(v, sel),
      permissions: () => ({ data: permissions(v.token) }),
    },
  };
}

export function permissions(token: TokenRecord): JsonObject[] {
  return token.scopes.map((permission) => ({ permission, status: 'granted' }));
}

/** The node `id` names, if the viewer may see it. */
export function nodeFor(v: Viewer, id: string): NodeType | null {
  if (v.token.kind !== 'page' && id === v.account.id) return userNode(v);
  const found = findAsset(v.call.slice, id);
  if (!found || found.account.id !== v.account.id) return null;
  if (v.token.kind === 'page') {
    const ownPage = v.token.assetId;
    const visible = found.asset.id === ownPage || found.asset.parentId === ownPage;
    if (!visible) return null;
  }
  if (found.asset.type === 'page') return pageNode(v, found.asset);
  if (found.asset.type === 'instagram_business_account') return igUserNode(found.asset);
  return null;
}
