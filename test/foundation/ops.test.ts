import { describe, expect, it } from 'vitest';
import { createHarness, asUser } from '../helpers/harness.ts';

describe('operations', () => {
  it('serves liveness and readiness', async () => {
    let stalled = false;
    const worker = async () =>
      stalled ? { name: 'worker', ok: false, detail: 'stalled' } : { name: 'worker', ok: true };
    const h2 = await createHarness({ readiness: () => [worker] });
    try {
      expect((await h2.req({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await h2.req({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: [
          { name: 'network-apps', ok: true },
          { name: 'database', ok: true },
          { name: 'worker', ok: true },
        ],
      });
      stalled = true;
      const notReady = await h2.req({ method: 'GET', url: '/readyz' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json().status).toBe('not_ready');
    } finally {
      await h2.close();
    }
  });

  it('counts requests by route pattern and status in Prometheus text', async () => {
    const h2 = await createHarness();
    try {
      const u = await h2.signup();
      await h2.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) });
      await h2.req({ method: 'GET', url: '/billing/usage' });
      const res = await h2.req({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toMatch(/herald_http_requests_total\{method="GET",route="\/billing\/usage",status="200"\} 1/);
      expect(res.body).toMatch(/herald_http_requests_total\{method="GET",route="\/billing\/usage",status="401"\} 1/);
      expect(res.body).toContain('herald_http_request_duration_seconds_bucket');
    } finally {
      await h2.close();
    }
  });

  it('sends X-Request-Id on every response, and a 500 reveals only that id', async () => {
    const h2 = await createHarness();
    try {
      const u = await h2.signup();
      h2.ctx.workspaces.connectedPlatforms = async () => {
        throw new Error('secret internals: connection string postgres://user:pw@db');
      };
      const res = await h2.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) });
      expect(res.statusCode).toBe(500);
      const id = res.headers['x-request-id'];
      expect(id).toBeTruthy();
      expect(res.json()).toEqual({ detail: 'Internal Server Error', request_id: id });
      expect(res.body).not.toContain('secret internals');
      const ok = await h2.req({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-123' } });
      expect(ok.headers['x-request-id']).toBe('trace-123');
      const hostile = await h2.req({ method: 'GET', url: '/healthz', headers: { 'x-request-id': '<script>' } });
      expect(hostile.headers['x-request-id']).not.toBe('<script>');
    } finally {
      await h2.close();
    }
  });

  it('answers unknown routes with a 404 detail', async () => {
    const h2 = await createHarness();
    try {
      const res = await h2.req({ method: 'GET', url: '/nope' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    } finally {
      await h2.close();
    }
  });

  it('publishes an OpenAPI 3.1 document generated from the route schemas, and a reference page', async () => {
    const h2 = await createHarness();
    try {
      const res = await h2.req({ method: 'GET', url: '/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/auth/signup', '/workspaces/{workspace_id}/api-keys', '/billing/usage']),
      );
      const signup = doc.paths['/auth/signup'].post;
      expect(signup.requestBody.content['application/json'].schema.required).toEqual(
        expect.arrayContaining(['email', 'password']),
      );
      const page = await h2.req({ method: 'GET', url: '/docs/' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
    } finally {
      await h2.close();
    }
  });
});
