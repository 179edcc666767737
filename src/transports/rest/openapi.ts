// The OpenAPI document is generated from the route schemas; this transform adds, for every route and
// in one place, what follows from its access rule and inputs: the error responses it can give (shared
// components in the interface's {detail} shapes), a description saying how to authenticate, the
// X-Workspace-Id header of workspace routes, and documentation-only bodies of routes that read their
// body themselves (multipart uploads are streamed, so they have no body schema to validate against).
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import type { Access } from './access.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** Documentation only (never validated): the request body by content type, for routes that parse it themselves. */
    documentedBody?: Record<string, ZodType>;
  }
}

// Schemas with an id in zod's global registry become components the responses refer to. (The global
// registry, not one of our own: it also holds every `.describe()` text of the route schemas.)
const component = <T extends ZodType>(schema: T, id: string, description: string) => schema.meta({ id, description });
const meta = (schema: ZodType) => z.globalRegistry.get(schema) as { id: string; description: string };

const fieldError = z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() });
const coded = z.object({ error: z.string(), message: z.string() }).catchall(z.unknown());

const ERRORS = {
  400: component(z.object({ detail: z.string() }), 'BadRequest', 'Bad request: e.g. a session without X-Workspace-Id, an unknown platform, a malformed URL.'),
  401: component(z.object({ detail: z.string() }), 'Unauthorized', 'Not authenticated: missing, invalid, expired or revoked credential.'),
  403: component(z.object({ detail: z.union([z.string(), coded]) }), 'Forbidden', "Not allowed: another workspace, the key's scope, owners only, or a plan without the feature ({\"error\": \"plan_required\", ...})."),
  404: component(z.object({ detail: z.string() }), 'NotFound', 'Not found (or not in this workspace).'),
  409: component(z.object({ detail: z.string() }), 'Conflict', 'Conflicts with the current state (e.g. an existing account).'),
  413: component(z.object({ detail: z.string() }), 'PayloadTooLarge', 'Request body over the limit of the route.'),
  415: component(z.object({ detail: z.string() }), 'UnsupportedMediaType', 'Body sent without Content-Type: application/json (or multipart/form-data where accepted).'),
  422: component(z.object({ detail: z.union([z.array(fieldError), z.string()]) }), 'ValidationError', 'Invalid input: one entry per field, `loc` = where (body, query, path, header) and the field path.'),
  429: component(z.object({ detail: coded }), 'RateLimited', 'Rate limit (APIKEY_RATE_LIMIT) or sign-in throttle (LOGIN_THROTTLED) reached; see Retry-After.'),
  500: component(z.object({ detail: z.string(), request_id: z.string() }), 'InternalError', 'Server error; quote request_id when reporting it.'),
  502: component(z.object({ detail: z.union([z.string(), coded]) }), 'BadGateway', 'The model provider (or a network) failed; the detail says how, without internals.'),
  503: component(z.object({ detail: z.string() }), 'NotConfigured', 'This server is not configured for the capability; the detail names the settings that enable it.'),
} as const;

type Status = keyof typeof ERRORS;

/** Shared error responses a route gives beyond those its access rule implies (e.g. 401 of a wrong password). */
export const errorResponses = (...statuses: Status[]) => Object.fromEntries(statuses.map((s) => [s, ERRORS[s]])) as Partial<typeof ERRORS>;

function accessText(access: Access | undefined): string {
  if (!access || access.kind === 'public' || access.kind === 'simulator') {
    return access?.kind === 'public' && access.budget === 'auth'
      ? 'No authentication. Sign-in budget per client address, and a per-account throttle on failed sign-ins.'
      : 'No authentication.';
  }
  if (access.kind === 'user') return 'Authentication: a user session (`Authorization: Bearer <access_token>` from /auth/login or /auth/signup); API keys are refused.';
  if (access.kind === 'admin') return 'Authentication: the session of an administrator.';
  if (access.kind === 'mcp') return 'MCP (JSON-RPC over streamable HTTP): see docs/mcp.md.';
  const parts = ['Authentication: `X-API-Key: <key>` (acts on the key\'s workspace), or a user session (`Authorization: Bearer <access_token>`) with `X-Workspace-Id`.'];
  if (access.feature) parts.push(`Needs the plan feature \`${access.feature}\`.`);
  if (access.ownerOnly) parts.push('Sessions: workspace owners only.');
  if (access.platforms) parts.push("A key scoped to some networks may act only on those.");
  return parts.join(' ');
}

function errorStatuses(schema: FastifySchema, url: string, access: Access | undefined): Status[] {
  const s: Status[] = [];
  const authenticated = access && (access.kind === 'user' || access.kind === 'admin' || access.kind === 'workspace');
  const hasBody = schema.body !== undefined || schema.documentedBody !== undefined;
  const hasInput = hasBody || schema.querystring !== undefined || schema.params !== undefined || schema.headers !== undefined || access?.kind === 'workspace';
  if (access?.kind === 'workspace') s.push(400);
  if (authenticated) s.push(401, 403);
  if (url.includes(':')) s.push(404);
  if (hasBody) s.push(413, 415);
  if (hasInput) s.push(422);
  if (!(access?.kind === 'public' && access.budget === 'none')) s.push(429);
  s.push(500);
  return s;
}

const workspaceHeader = z.object({ 'x-workspace-id': z.uuid().describe('The workspace to act on, with a user session (an API key implies its own).').optional() });

const toJson = (schema: ZodType) => {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

const zodTransform = jsonSchemaTransform;

export const openApiTransform: SwaggerTransform = (doc) => {
  const { schema, url, route } = doc as typeof doc & { route?: { config?: { access?: Access } } };
  if (!schema || (schema as { hide?: boolean }).hide) return zodTransform(doc as never);
  const access = route?.config?.access;
  const { documentedBody, ...rest } = schema as FastifySchema;
  const response = { ...(rest.response as Record<string, unknown> | undefined) };
  for (const status of errorStatuses(schema as FastifySchema, url, access)) response[status] ??= ERRORS[status];
  const shared = (Object.keys(ERRORS).map(Number) as Status[]).filter((status) => response[status] === ERRORS[status]);
  const summary = (rest as { summary?: string }).summary;
  const description = [(rest as { description?: string }).description ?? summary, accessText(access)].filter(Boolean).join('\n\n');
  const headers = access?.kind === 'workspace' ? (rest.headers instanceof z.ZodObject ? rest.headers.extend(workspaceHeader.shape) : workspaceHeader) : rest.headers;
  const out = zodTransform({ ...doc, schema: { ...rest, response, description, ...(headers ? { headers } : {}) } } as never) as { schema: Record<string, unknown>; url: string };
  // A response that is a $ref takes its description from here, not from the component.
  const responses = out.schema.response as Record<number, Record<string, unknown>>;
  for (const status of shared) responses[status] = { ...responses[status], description: meta(ERRORS[status]).description };
  if (documentedBody) {
    out.schema.body = { content: Object.fromEntries(Object.entries(documentedBody).map(([type, s]) => [type, { schema: toJson(s) }])) };
  }
  return out;
};

const zodTransformObject = jsonSchemaTransformObject;

/** Adds the shared error components to the document (responses only: their input twins are dropped). */
export const openApiTransformObject: typeof zodTransformObject = (doc) => {
  const out = zodTransformObject(doc) as { components?: { schemas?: Record<string, unknown> } };
  for (const status of Object.keys(ERRORS)) delete out.components?.schemas?.[`${meta(ERRORS[Number(status) as Status]).id}Input`];
  return out as ReturnType<typeof zodTransformObject>;
};
