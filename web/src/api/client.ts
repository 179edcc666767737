// The app's only way to the API: openapi-fetch typed from Herald's own OpenAPI document (schema.d.ts, written by
// `npm run web:types`). Requests carry the session cookie, the current workspace and, for writes, the CSRF token
// GET /auth/csrf hands out. A failed request becomes an ApiError carrying the API's `detail`.
import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError } from './errors.ts';
import type { paths } from './schema.d.ts';

export type { paths } from './schema.d.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const WORKSPACE_KEY = 'herald.workspace';

let workspaceId: string | undefined = readStoredWorkspace();

function readStoredWorkspace(): string | undefined {
  try {
    return localStorage.getItem(WORKSPACE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The workspace every request acts on (header X-Workspace-Id); remembered across visits. */
export function setWorkspaceId(id: string | undefined): void {
  workspaceId = id;
  try {
    if (id) localStorage.setItem(WORKSPACE_KEY, id);
    else localStorage.removeItem(WORKSPACE_KEY);
  } catch {
    // Private browsing without storage: the choice lasts for this page only.
  }
}

export function currentWorkspaceId(): string | undefined {
  return workspaceId;
}

let csrf: Promise<string> | undefined;

/** The CSRF token of this browser session, fetched once and again after it was refused. */
export function csrfToken(): Promise<string> {
  csrf ??= must(api.GET('/auth/csrf'))
    .then((body) => body.csrf_token)
    .catch((err: unknown) => {
      csrf = undefined;
      throw err;
    });
  return csrf;
}

/** Forgets the CSRF token (after login or logout the server may hand out another). */
export function resetCsrf(): void {
  csrf = undefined;
}

/** The headers every request of the app carries; writes add the CSRF token. */
export async function appHeaders(method: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = { 'X-Herald-Client': 'web' };
  if (workspaceId) headers['X-Workspace-Id'] = workspaceId;
  if (!SAFE_METHODS.has(method.toUpperCase())) headers['X-CSRF-Token'] = await csrfToken();
  return headers;
}

const CSRF_REFUSED = 'CSRF token missing or invalid';
const retries = new WeakMap<Request, Request>();

const appMiddleware: Middleware = {
  async onRequest({ request }) {
    for (const [name, value] of Object.entries(await appHeaders(request.method))) request.headers.set(name, value);
    if (!SAFE_METHODS.has(request.method)) retries.set(request, request.clone());
    return request;
  },
  async onResponse({ request, response }) {
    // A token the server no longer accepts (its secret rotated with the session): fetch another, try once more.
    const retry = retries.get(request);
    if (response.status !== 403 || !retry) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { detail?: unknown } | undefined;
    if (body?.detail !== CSRF_REFUSED) return response;
    resetCsrf();
    retry.headers.set('X-CSRF-Token', await csrfToken());
    return fetch(retry);
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'include' });
api.use(appMiddleware);

/** The data of a response, or an ApiError with the API's message. */
export async function must<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw ApiError.fromBody(error, response.status);
  return data as D;
}
