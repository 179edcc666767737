// The error responses of /openapi.json: shared components in the interface's {detail} shapes, and the rule that
// gives each operation those that follow from how Herald answers any route (its access kind, its method, its path
// parameters). What only some routes answer (a 404 of an id in the body, a 409 of a state change, a 402 of credits)
// the route declares itself, in its response map: `response: { 200: ..., ...errorResponses(404, 409) }`.
import { z, type ZodType } from 'zod';
import type { Access } from './access.ts';

// Schemas with an id in zod's global registry become components the responses refer to. (The global
// registry, not one of our own: it also holds every `.describe()` text of the route schemas.)
const component = <T extends ZodType>(schema: T, id: string, description: string) => schema.meta({ id, description });
export const metaOf = (schema: ZodType) => z.globalRegistry.get(schema) as { id: string; description: string };

const fieldError = z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() });
const coded = z.object({ error: z.string(), message: z.string() }).catchall(z.unknown());

export const ERRORS = {
  400: component(
    z.object({ detail: z.string() }),
    'BadRequest',
    'Bad request: e.g. a session without X-Workspace-Id, an unknown platform, a malformed URL (invalid percent-encoding).',
  ),
  401: component(
    z.object({ detail: z.string() }),
    'Unauthorized',
    'Not authenticated: missing, invalid, expired or revoked credential.',
  ),
  402: component(
    z.object({ detail: z.union([z.string(), coded]) }),
    'PaymentRequired',
    'Not enough credits left this period ({"error": "insufficient_credits", ...}).',
  ),
  403: component(
    z.object({ detail: z.union([z.string(), coded]) }),
    'Forbidden',
    'Not allowed: another workspace, the key\'s scope, owners only, or a plan without the feature ({"error": "plan_required", ...}).',
  ),
  404: component(
    z.object({ detail: z.union([z.string(), coded]) }),
    'NotFound',
    'Not found (or not in this workspace): the resource of the path, or an id the request names.',
  ),
  409: component(
    z.object({ detail: z.union([z.string(), coded]) }),
    'Conflict',
    'Conflicts with the current state (e.g. an existing account, a post no longer in a state that allows this, a request with the same Idempotency-Key still running).',
  ),
  413: component(z.object({ detail: z.string() }), 'PayloadTooLarge', 'Request body over the limit of the route.'),
  414: component(
    z.object({ detail: z.string() }),
    'UriTooLong',
    'URL too long: a path segment over the length allowed, or a request line over the server limit.',
  ),
  415: component(
    z.object({ detail: z.string() }),
    'UnsupportedMediaType',
    'Body sent without Content-Type: application/json (or multipart/form-data where accepted).',
  ),
  422: component(
    z.object({ detail: z.union([z.array(fieldError), z.string()]) }),
    'ValidationError',
    'Invalid input: one entry per field, `loc` = where (body, query, path, header) and the field path.',
  ),
  429: component(
    z.object({ detail: coded }),
    'RateLimited',
    'Rate limit (APIKEY_RATE_LIMIT) or sign-in throttle (LOGIN_THROTTLED) reached; see Retry-After.',
  ),
  500: component(
    z.object({ detail: z.string(), request_id: z.string() }),
    'InternalError',
    'Server error; quote request_id when reporting it.',
  ),
  502: component(
    z.object({ detail: z.union([z.string(), coded]) }),
    'BadGateway',
    'The model provider (or a network) failed; the detail says how, without internals.',
  ),
  503: component(
    z.object({ detail: z.string() }),
    'NotConfigured',
    'This server is not configured for the capability; the detail names the settings that enable it.',
  ),
} as const;

export type Status = keyof typeof ERRORS;

/** Shared error responses a route gives beyond those the rule below implies (e.g. 409 of a state change). */
export const errorResponses = (...statuses: Status[]) =>
  Object.fromEntries(statuses.map((s) => [s, ERRORS[s]])) as Partial<typeof ERRORS>;

/**
 * Fastify reads a body on these methods whatever the route declares: a wrong type is 415, too much 413, bad JSON 422.
 */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RouteShape {
  url: string;
  methods: string[];
  /** The route declares a body, query, path or header schema (or a documentation-only body). */
  declaresInput: boolean;
  access: Access | undefined;
}

/** The error statuses every route of this shape answers, whatever its handler does. */
export function commonErrorStatuses({ url, methods, declaresInput, access }: RouteShape): Status[] {
  const s: Status[] = [];
  const authenticated = access && (access.kind === 'user' || access.kind === 'admin' || access.kind === 'workspace');
  const pathParams = url.includes(':');
  const takesBody = methods.some((m) => BODY_METHODS.has(m.toUpperCase()));
  // A session without X-Workspace-Id; a path segment with invalid percent-encoding.
  if (access?.kind === 'workspace' || pathParams) s.push(400);
  if (authenticated) s.push(401, 403);
  if (pathParams) s.push(404);
  if (takesBody) s.push(413);
  // Node refuses a request line over its header limit on any URL; Fastify a path parameter over its length.
  s.push(414);
  if (takesBody) s.push(415);
  if (takesBody || declaresInput || access?.kind === 'workspace') s.push(422);
  if (!(access?.kind === 'public' && access.budget === 'none')) s.push(429);
  s.push(500);
  return s;
}
