// Helpers for the publishing tests: connecting an account on each network, media byte fixtures and `_state`
// shortcuts.
import { SANDBOX_APPS } from '../../src/sandbox/index.ts';
import { basic, codeFrom, json, postForm, withQuery } from './helpers.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox as Sandbox } from '../helpers/sandbox.ts';

/** Objects of one `_state` map (posts, media, containers, uploads) of a platform. */
export async function objects(sb: Sandbox, platform: Parameters<Sandbox['state']>[0], map: string): Promise<Json[]> {
  return ((await sb.state(platform))[map] ?? []) as unknown as Json[];
}

function filled(head: number[], length: number): Buffer {
  const out = Buffer.alloc(Math.max(length, head.length), 0x20);
  Buffer.from(head).copy(out);
  return out;
}

/** Byte buffers whose magic numbers identify the format, padded to `length`. */
export const fixture = {
  jpeg: (length = 2048) => filled([0xff, 0xd8, 0xff, 0xe0], length),
  png: (length = 2048) => filled([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], length),
  mp4: (length = 4096) => filled([0, 0, 0, 0x18, ...Buffer.from('ftypmp42')], length),
  text: (length = 1024) => Buffer.alloc(length, 0x61),
};

export function sendJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Response> {
  return fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export async function connectLinkedIn(
  sb: Sandbox,
  scope = 'openid profile w_member_social w_organization_social r_organization_social',
) {
  const app = SANDBOX_APPS.linkedin;
  const url = withQuery(sb.url('linkedin', '/oauth/v2/authorization'), {
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: sb.callback('linkedin'),
    state: 's',
    scope,
  });
  const body = await json(
    await postForm(sb.url('linkedin', '/oauth/v2/accessToken'), {
      grant_type: 'authorization_code',
      code: await codeFrom(url),
      redirect_uri: sb.callback('linkedin'),
      client_id: app.clientId,
      client_secret: app.clientSecret,
    }),
  );
  const access = String(body.access_token);
  const me = await json(
    await fetch(sb.url('linkedin', '/v2/userinfo'), { headers: { authorization: `Bearer ${access}` } }),
  );
  const account = ((await sb.state('linkedin')).accounts as unknown as Json[])[0];
  const orgs = (account?.assets as unknown as Json[]).map((a) => String(a.id));
  return { access, person: `urn:li:person:${String(me.sub)}`, orgs: orgs.map((id) => `urn:li:organization:${id}`) };
}

export async function connectFacebook(
  sb: Sandbox,
  scope = 'pages_show_list,pages_manage_posts,pages_read_engagement,publish_video',
) {
  const app = SANDBOX_APPS.facebook;
  const V = 'v21.0';
  const code = await codeFrom(
    withQuery(sb.url('facebook', `/${V}/dialog/oauth`), {
      client_id: app.clientId,
      redirect_uri: sb.callback('facebook'),
      state: 's',
      response_type: 'code',
      scope,
    }),
  );
  const tokenUrl = (params: Record<string, string>) =>
    withQuery(sb.url('facebook', `/${V}/oauth/access_token`), params);
  const short = await json(
    await fetch(
      tokenUrl({
        client_id: app.clientId,
        client_secret: app.clientSecret,
        redirect_uri: sb.callback('facebook'),
        code,
      }),
    ),
  );
  const long = await json(
    await fetch(
      tokenUrl({
        grant_type: 'fb_exchange_token',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        fb_exchange_token: String(short.access_token),
      }),
    ),
  );
  const user = String(long.access_token);
  const pages = await json(await fetch(sb.url('facebook', `/${V}/me/accounts?access_token=${user}`)));
  const data = pages.data as unknown as Json[];
  return { user, pages: data.map((p) => ({ id: String(p.id), token: String(p.access_token) })) };
}

export async function connectPinterest(
  sb: Sandbox,
  scope = 'boards:read,boards:write,pins:read,pins:write,user_accounts:read',
  user = 'sandbox-user',
) {
  const app = SANDBOX_APPS.pinterest;
  const code = await codeFrom(
    withQuery(sb.url('pinterest', '/oauth/'), {
      client_id: app.clientId,
      redirect_uri: sb.callback('pinterest'),
      response_type: 'code',
      scope,
      state: 's',
    }),
    { 'x-sandbox-user': user },
  );
  const body = await json(
    await postForm(
      sb.url('pinterest', '/v5/oauth/token'),
      { grant_type: 'authorization_code', code, redirect_uri: sb.callback('pinterest') },
      basic(app.clientId, app.clientSecret),
    ),
  );
  const access = String(body.access_token);
  const boards = await json(
    await fetch(sb.url('pinterest', '/v5/boards'), { headers: { authorization: `Bearer ${access}` } }),
  );
  return { access, boards: (boards.items as unknown as Json[]).map((b) => String(b.id)) };
}

/** Instagram Login: a long-lived IGAA token and the professional account id that publishing targets. */
export async function connectInstagram(
  sb: Sandbox,
  scope = 'instagram_business_basic,instagram_business_content_publish',
) {
  const app = SANDBOX_APPS.instagram;
  const code = await codeFrom(
    withQuery(sb.url('instagram', '/oauth/authorize'), {
      client_id: app.clientId,
      redirect_uri: sb.callback('instagram'),
      response_type: 'code',
      scope,
      state: 's',
    }),
  );
  const short = await json(
    await postForm(sb.url('instagram', '/oauth/access_token'), {
      client_id: app.clientId,
      client_secret: app.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: sb.callback('instagram'),
      code,
    }),
  );
  const long = await json(
    await fetch(
      withQuery(sb.url('instagram', '/access_token'), {
        grant_type: 'ig_exchange_token',
        client_secret: app.clientSecret,
        access_token: String(short.access_token),
      }),
    ),
  );
  const token = String(long.access_token);
  const account = ((await sb.state('instagram')).accounts as unknown as Json[])[0];
  return { token, igUserId: String((account?.fields as Json).user_id) };
}

/** Threads: a long-lived THAA token and the profile id. */
export async function connectThreads(sb: Sandbox, scope = 'threads_basic,threads_content_publish,threads_delete') {
  const app = SANDBOX_APPS.threads;
  const code = await codeFrom(
    withQuery(sb.url('threads', '/oauth/authorize'), {
      client_id: app.clientId,
      redirect_uri: sb.callback('threads'),
      scope,
      response_type: 'code',
      state: 's',
    }),
  );
  const short = await json(
    await postForm(sb.url('threads', '/oauth/access_token'), {
      client_id: app.clientId,
      client_secret: app.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: sb.callback('threads'),
      code,
    }),
  );
  const long = await json(
    await fetch(
      withQuery(sb.url('threads', '/access_token'), {
        grant_type: 'th_exchange_token',
        client_secret: app.clientSecret,
        access_token: String(short.access_token),
      }),
    ),
  );
  return { token: String(long.access_token), userId: String(short.user_id) };
}
