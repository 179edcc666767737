// GET /unified/platforms: every registered network with the rules publishing validates with, read from its contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('GET /unified/platforms', () => {
  it('lists every network of the registry, in its order, with its text, field and media limits', async () => {
    const res = await h.req({ method: 'GET', url: '/unified/platforms' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sandbox).toBe(false);
    expect(body.platforms.map((p: { slug: string }) => p.slug)).toEqual(h.ctx.platforms.slugs);
    for (const p of body.platforms) {
      const n = h.ctx.platforms.network(p.slug);
      expect(p.display_name).toBe(n.displayName);
      expect(p.post_types).toEqual(n.capabilities.postTypes);
      const t = n.capabilities.text;
      expect(p.text).toEqual(t ? { max: t.max, unit: t.unit, ...(t.maxBytes ? { max_bytes: t.maxBytes } : {}) } : null);
      expect(p.media.max_image_bytes).toBe(n.media.maxImageBytes);
      expect(p.media.carousel).toEqual(n.media.carousel);
      expect(p.media.video_seconds).toEqual(n.media.videoSeconds);
      expect(Object.keys(p.fields)).toEqual(Object.keys(n.fields ?? {}));
      expect(p.destinations?.kind ?? null).toBe(n.reads?.kind ?? null);
      expect(p.override_schema === null).toBe(!n.override);
      expect(p.configured).toBe(h.ctx.platforms.get(p.slug).configured);
    }
  });

  it('says how each network counts: Bluesky graphemes with a byte cap, LinkedIn organizations as destinations', async () => {
    const { platforms } = (await h.req({ method: 'GET', url: '/unified/platforms' })).json();
    const bySlug = Object.fromEntries(platforms.map((p: { slug: string }) => [p.slug, p]));
    expect(bySlug.bluesky.text).toEqual({ max: 300, unit: 'graphemes', max_bytes: 3000 });
    expect(bySlug.bluesky.auth_kind).toBe('app_password');
    expect(bySlug.linkedin.destinations).toEqual({
      kind: 'organization',
      query_param: 'linkedin_organization_ids',
      publish_field: 'linkedin_page_ids',
    });
    expect(bySlug.linkedin.override_schema.properties).toHaveProperty('linkedin_page_ids');
  });
});
