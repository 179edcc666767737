// The OpenAPI document is generated from the route schemas; this transform adds, for every route and
// in one place, what follows from its access rule and inputs: the error responses it can give (shared
// components in the interface's {detail} shapes, openapi-errors.ts), its security requirement and a
// description saying how to authenticate, the X-Workspace-Id header of workspace routes, the description
// of its success response, and documentation-only bodies of routes that read their body themselves
// (multipart uploads are streamed, so they have no body schema to validate against). Each route names its
// operation (`operationId`, camelCase, unique: the typed clients generated from the document use it).
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import type { Access } from './access.ts';
import { commonErrorStatuses, ERRORS, metaOf, type Status } from './openapi-errors.ts';

export { errorResponses } from './openapi-errors.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** Documentation only (never validated): the request body by content type, for routes that parse it themselves. */
    documentedBody?: Record<string, ZodType>;
    /** Documentation only: what the success (2xx) response is, unless its schema says so with `.describe()`. */
    responseDescription?: string;
  }
}

/** The web app's form of a user session (docs/security.md, Browser sessions). */
const BROWSER =
  'In a browser, the session cookie set by /auth/login with `X-Herald-Client: web` stands for the Bearer token; a write made with it also needs `X-CSRF-Token` (GET /auth/csrf).';

function accessText(access: Access | undefined): string {
  if (!access || access.kind === 'public' || access.kind === 'simulator') {
    return access?.kind === 'public' && access.budget === 'auth'
      ? 'No authentication. Sign-in budget per client address, and a per-account throttle on failed sign-ins.'
      : 'No authentication.';
  }
  if (access.kind === 'user')
    return `Authentication: a user session (\`Authorization: Bearer <access_token>\` from /auth/login or /auth/signup); API keys are refused. ${BROWSER}`;
  if (access.kind === 'admin') return 'Authentication: the session of an administrator.';
  if (access.kind === 'mcp') return 'MCP (JSON-RPC over streamable HTTP): see docs/mcp.md.';
  const parts = [
    "Authentication: `X-API-Key: <key>` (acts on the key's workspace), or a user session (`Authorization: Bearer <access_token>`) with `X-Workspace-Id`.",
    BROWSER,
  ];
  if (access.feature) parts.push(`Needs the plan feature \`${access.feature}\`.`);
  if (access.ownerOnly) parts.push('Sessions: workspace owners only.');
  if (access.platforms) parts.push('A key scoped to some networks may act only on those.');
  return parts.join(' ');
}

/** Bearer/API-key security requirements of the document, by access kind (a route may still declare its own). */
export const workspaceSecurity: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];
export const userSecurity: Record<string, string[]>[] = [{ Bearer: [] }];

function securityOf(access: Access | undefined): Record<string, string[]>[] | undefined {
  if (!access || access.kind === 'public') return [];
  if (access.kind === 'user' || access.kind === 'admin') return userSecurity;
  if (access.kind === 'workspace') return workspaceSecurity;
  return undefined;
}

const workspaceHeader = z.object({
  'x-workspace-id': z
    .uuid()
    .describe('The workspace to act on, with a user session (an API key implies its own).')
    .optional(),
});

const toJson = (schema: ZodType) => {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
};

type Json = Record<string, unknown>;

export const openApiTransform: SwaggerTransform = (doc) => {
  const { schema, url, route } = doc as typeof doc & {
    route?: { method?: string | string[]; config?: { access?: Access } };
  };
  if (!schema || (schema as { hide?: boolean }).hide) return jsonSchemaTransform(doc as never);
  const access = route?.config?.access;
  const { documentedBody, responseDescription, ...rest } = schema as FastifySchema;
  const response = { ...(rest.response as Json | undefined) };
  const declaresInput = [rest.body, documentedBody, rest.querystring, rest.params, rest.headers].some(
    (s) => s !== undefined,
  );
  for (const status of commonErrorStatuses({ url, methods: [route?.method ?? 'GET'].flat(), declaresInput, access }))
    response[status] ??= ERRORS[status];
  const shared = (Object.keys(ERRORS).map(Number) as Status[]).filter((status) => response[status] === ERRORS[status]);
  const summary = (rest as { summary?: string }).summary;
  const description = [(rest as { description?: string }).description ?? summary, accessText(access)]
    .filter(Boolean)
    .join('\n\n');
  const headers =
    access?.kind === 'workspace'
      ? rest.headers instanceof z.ZodObject
        ? rest.headers.extend(workspaceHeader.shape)
        : workspaceHeader
      : rest.headers;
  const security = (rest as { security?: unknown }).security ?? securityOf(access);
  const out = jsonSchemaTransform({
    ...doc,
    schema: { ...rest, response, description, ...(headers ? { headers } : {}), ...(security ? { security } : {}) },
  } as never) as { schema: Json; url: string };
  const responses = out.schema.response as Record<number, Json>;
  // A response that is a $ref takes its description from here, not from the component.
  for (const status of shared)
    responses[status] = { ...responses[status], description: metaOf(ERRORS[status]).description };
  if (responseDescription) {
    for (const status of Object.keys(responses).filter((s) => s.startsWith('2')))
      responses[Number(status)] = { ...responses[Number(status)], 'x-response-description': responseDescription };
  }
  if (documentedBody) {
    out.schema.body = {
      content: Object.fromEntries(Object.entries(documentedBody).map(([type, s]) => [type, { schema: toJson(s) }])),
    };
  }
  return out;
};

/**
 * Adds the components of zod's registry to the document. zod emits an input and an output twin of each; a twin
 * that nothing refers to (the input of a response-only schema such as the error bodies) is dropped.
 */
export const openApiTransformObject: typeof jsonSchemaTransformObject = (doc) => {
  const out = jsonSchemaTransformObject(doc) as { paths?: Json; components?: { schemas?: Json } };
  const schemas = out.components?.schemas ?? {};
  const refersTo = (value: unknown, id: string) =>
    JSON.stringify(value ?? null).includes(`"#/components/schemas/${id}"`);
  for (let dropped = true; dropped; ) {
    dropped = false;
    for (const id of Object.keys(schemas)) {
      if (!id.endsWith('Input') || schemas[id.slice(0, -'Input'.length)] === undefined) continue;
      const others = Object.entries(schemas).filter(([other]) => other !== id);
      if (refersTo(out.paths, id) || others.some(([, s]) => refersTo(s, id))) continue;
      delete schemas[id];
      dropped = true;
    }
  }
  return out as ReturnType<typeof jsonSchemaTransformObject>;
};
