// The Pages a user token manages (/me/accounts), shared by the token flow (Page tokens) and the account read.
import type { AdapterDeps } from '../types.ts';
import { FACEBOOK_GRAPH_VERSION, facebookUrls } from './config.ts';
import { facebookOk } from './errors.ts';
import { isRecord, str } from '../meta/graph.ts';

// A user rarely manages more than a few dozen Pages; the cap only stops a runaway cursor.
const MAX_PAGES_OF_RESULTS = 10;

export async function listPages(
  deps: AdapterDeps,
  userToken: string,
  fields: string,
): Promise<Record<string, unknown>[]> {
  const { graphBase } = facebookUrls(deps);
  const out: Record<string, unknown>[] = [];
  let url: string | null = `${graphBase}/${FACEBOOK_GRAPH_VERSION}/me/accounts`;
  let query: Record<string, string> | undefined = { fields, limit: '100' };
  for (let i = 0; url && i < MAX_PAGES_OF_RESULTS; i++) {
    const res = await deps.http.request('facebook', {
      url,
      ...(query ? { query } : {}),
      headers: { authorization: `Bearer ${userToken}` },
    });
    const body = facebookOk(res);
    if (Array.isArray(body.data)) for (const item of body.data) if (isRecord(item)) out.push(item);
    const next = isRecord(body.paging) ? str(body.paging.next) : null;
    // `next` is a full URL carrying the token; follow it only on the Graph host we were configured with.
    url = next?.startsWith(`${graphBase}/`) ? next : null;
    query = undefined;
  }
  return out;
}

/** Page id → Page access token, for TokenSet.extra. */
export async function pageTokens(deps: AdapterDeps, userToken: string): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const page of await listPages(deps, userToken, 'id,access_token')) {
    const id = str(page.id);
    const token = str(page.access_token);
    if (id && token) tokens[id] = token;
  }
  return tokens;
}
