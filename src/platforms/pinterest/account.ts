// The connected Pinterest account: GET /v5/user_account for the profile and GET /v5/boards for the boards a pin can
// go to (its destinations). The profile slice uses the field names of contract-gaps §5.
import type { AccountIdentity, Destination, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { bearer } from './context.ts';
import type { PinterestContext } from './context.ts';
import { readApi } from './errors.ts';

type Obj = Record<string, unknown>;

// 250 is the largest page Pinterest serves; 20 pages bounds a runaway bookmark chain far beyond any real account.
const PAGE_SIZE = 250;
const MAX_BOARD_PAGES = 20;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

async function listBoards(ctx: PinterestContext, tokens: TokenSet): Promise<Obj[]> {
  const boards: Obj[] = [];
  let bookmark: string | null = null;
  for (let page = 0; page < MAX_BOARD_PAGES; page++) {
    const res = await ctx.deps.http.request('pinterest', {
      url: `${ctx.apiBase}/v5/boards`,
      query: { page_size: PAGE_SIZE, bookmark },
      headers: bearer(tokens.accessToken),
    });
    const body = readApi(res, 'board list');
    if (Array.isArray(body.items)) boards.push(...body.items.map(obj));
    bookmark = text(body.bookmark);
    if (!bookmark) break;
  }
  return boards;
}

export async function fetchPinterestAccount(ctx: PinterestContext, tokens: TokenSet): Promise<AccountIdentity> {
  const res = await ctx.deps.http.request('pinterest', {
    url: `${ctx.apiBase}/v5/user_account`,
    headers: bearer(tokens.accessToken),
  });
  const user = readApi(res, 'user account read');
  const id = text(user.id);
  if (!id)
    throw new PlatformError('pinterest', 'transient', 'Pinterest user account came back without an id', {
      status: res.status,
    });
  const boards = await listBoards(ctx, tokens);

  const username = text(user.username);
  const businessName = text(user.business_name);
  const avatar = text(user.profile_image);
  const destinations: Destination[] = boards
    .filter((b) => text(b.id))
    .map((b) => ({
      kind: 'board',
      id: String(b.id),
      name: text(b.name) ?? String(b.id),
      avatarUrl: text(obj(b.media).image_cover_url),
      meta: { privacy: text(b.privacy), description: text(b.description), pin_count: count(b.pin_count) },
    }));
  return {
    id,
    name: businessName ?? username ?? id,
    username,
    avatarUrl: avatar,
    destinations,
    slice: {
      profile: {
        pinterest_user_id: id,
        username,
        business_name: businessName,
        account_type: text(user.account_type),
        website_url: text(user.website_url),
        about: text(user.about),
        board_count: count(user.board_count),
        pin_count: count(user.pin_count),
        follower_count: count(user.follower_count),
        following_count: count(user.following_count),
        monthly_views: count(user.monthly_views),
        profile_image: avatar,
      },
      boards: destinations.map((d) => ({ board_id: d.id, name: d.name })),
    },
  };
}
