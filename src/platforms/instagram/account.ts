// The connected Instagram professional account (graph.instagram.com/{version}/me). Instagram Login connects exactly
// one account and has no pages, so there are no destinations besides the account itself.
import type { AccountIdentity, AdapterDeps, TokenSet } from '../types.ts';
import { num, required, str } from '../meta/graph.ts';
import { INSTAGRAM_GRAPH_VERSION, instagramUrls } from './config.ts';
import { instagramOk } from './errors.ts';

const FIELDS = [
  'user_id',
  'username',
  'name',
  'account_type',
  'profile_picture_url',
  'followers_count',
  'follows_count',
  'media_count',
  'biography',
  'website',
].join(',');

export function instagramAccount(deps: AdapterDeps): (tokens: TokenSet) => Promise<AccountIdentity> {
  const { graphBase } = instagramUrls(deps);
  return async (tokens) => {
    const res = await deps.http.request('instagram', {
      url: `${graphBase}/${INSTAGRAM_GRAPH_VERSION}/me`,
      query: { fields: FIELDS },
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    const me = instagramOk(res);
    // `user_id` is the professional account id that publishing targets; `id` is only app-scoped (webhooks).
    const id = str(me.user_id) ?? required('instagram', me.id, 'the account id');
    const username = str(me.username);
    const avatar = str(me.profile_picture_url);
    return {
      id,
      name: str(me.name) ?? username ?? id,
      username,
      avatarUrl: avatar,
      destinations: [],
      slice: {
        profile: {
          username,
          name: str(me.name),
          account_type: str(me.account_type),
          followers_count: num(me.followers_count),
          follows_count: num(me.follows_count),
          media_count: num(me.media_count),
          biography: str(me.biography),
          website: str(me.website),
          profile_picture_url: avatar,
        },
      },
    };
  };
}
