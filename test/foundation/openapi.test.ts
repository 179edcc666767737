// /openapi.json documents every operation: a description, its error responses in the {detail}
// shapes, the X-Workspace-Id header of workspace routes, and a multipart upload Swagger UI can send.
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../src/transports/rest/access.ts';
import { createHarness, type Harness } from '../helpers/harness.ts';

interface Operation {
  description?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: {
    content: Record<
      string,
      { schema: { properties?: Record<string, { type?: string; format?: string; items?: { format?: string } }> } }
    >;
  };
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

let h: Harness;
let doc: Doc;
const routes: RouteOptions[] = [];
beforeAll(async () => {
  h = await createHarness({ configureApp: (app) => app.addHook('onRoute', (r) => void routes.push(r)) });
  doc = (await h.req({ method: 'GET', url: '/openapi.json' })).json() as Doc;
});
afterAll(() => h.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
const ref = (op: Operation, status: string) => op.responses[status]?.content?.['application/json']?.schema.$ref;

describe('OpenAPI document', () => {
  it('gives every operation a description and its error responses, as shared {detail} components', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(30);
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.description?.trim(), where).toBeTruthy();
      expect(ref(op, '500'), where).toBe('#/components/schemas/InternalError');
      // Any URL can be too long (414); a method that reads a body refuses a wrong type or size; path parameters can be malformed.
      expect(Object.keys(op.responses), where).toContain('414');
      if (['post', 'put', 'patch', 'delete'].includes(method))
        expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['413', '415', '422']));
      if (path.includes('{')) expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['400', '404']));
      for (const [status, res] of Object.entries(op.responses)) {
        if (!/^[45]/.test(status)) continue;
        expect(res.description, `${where} ${status}`).not.toBe('Default Response');
        const component = ref(op, status)?.replace('#/components/schemas/', '');
        // Errors a route declares itself may be inline; the shared ones are components with `detail`.
        if (component) expect(doc.components.schemas[component]?.required, `${where} ${status}`).toContain('detail');
      }
    }
    const login = doc.paths['/auth/login']!.post!;
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['401', '422', '429']));
    expect(ref(login, '422')).toBe('#/components/schemas/ValidationError');
    expect(ref(login, '429')).toBe('#/components/schemas/RateLimited');
    const drafts = doc.paths['/unified/drafts/{id}']!.get!;
    expect(Object.keys(drafts.responses)).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '422', '429', '500']),
    );
    expect(doc.paths['/healthz']!.get!.responses['429']).toBeUndefined();
    expect(Object.keys(doc.paths['/healthz']!.get!.responses)).toEqual(['200', '414', '500']);
    // Statuses only some routes answer, declared by the route itself.
    const declares = (path: string, method: string, ...statuses: string[]) =>
      expect(Object.keys(doc.paths[path]![method]!.responses), `${method} ${path}`).toEqual(
        expect.arrayContaining(statuses),
      );
    declares('/unified/post/text', 'post', '402', '404', '409');
    declares('/unified/scheduled-posts/{id}', 'patch', '409');
    declares('/unified/drafts/{id}/publish', 'post', '402', '409');
    declares('/unified/comments/replies', 'get', '404');
    declares('/media/storage/chunk', 'post', '404', '409');
    declares('/media/storage/progress', 'get', '404');
    expect(doc.paths['/unified/drafts']!.get!.responses['409']).toBeUndefined();
    // A 404 of a network resource carries a code: {"detail": {"error": "COMMENT_NOT_FOUND", "message": ...}}.
    expect(JSON.stringify(doc.components.schemas.NotFound)).toContain('"error"');
  });

  it('declares X-Workspace-Id on every workspace route', () => {
    const workspaceRoutes = routes.filter(
      (r) =>
        (r.config as { access?: Access } | undefined)?.access?.kind === 'workspace' &&
        r.method !== 'HEAD' &&
        !(r.schema as { hide?: boolean } | undefined)?.hide,
    );
    expect(workspaceRoutes.length).toBeGreaterThan(20);
    for (const r of workspaceRoutes) {
      const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      for (const method of [r.method].flat()) {
        const op = doc.paths[path]?.[String(method).toLowerCase()];
        expect(op, `${String(method)} ${path}`).toBeDefined();
        expect(
          op!.parameters?.find((p) => p.in === 'header' && p.name === 'x-workspace-id'),
          `${String(method)} ${path}`,
        ).toMatchObject({ required: false });
      }
    }
    // Routes for sessions only do not take it.
    expect(doc.paths['/workspaces']!.get!.parameters?.some((p) => p.name === 'x-workspace-id') ?? false).toBe(false);
  });

  it('documents the multipart body of /media/upload with a binary media field, and the JSON variant', () => {
    const upload = doc.paths['/media/upload']!.post!;
    const form = upload.requestBody!.content['multipart/form-data']!.schema;
    expect(form.properties!.media).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties!.images).toMatchObject({ type: 'array', items: { format: 'binary' } });
    expect(form.properties!.media_type).toBeDefined();
    expect(upload.requestBody!.content['application/json']!.schema.properties!.media_url).toBeDefined();
    const chunk = doc.paths['/media/storage/chunk']!.post!;
    expect(chunk.requestBody!.content['multipart/form-data']!.schema.properties!.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
  });
});
