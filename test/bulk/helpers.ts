// Bulk import tests: a harness whose plans include a small scheduled-post allowance, and requests carrying a file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { restrictedPlansFile } from '../helpers/security-matrix.ts';
import type { TestClock } from '../scheduling/helpers.ts';

export const SMALL_PLAN = 'bulk_small';

export async function bulkHarness(clock: TestClock): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'herald-bulk-'));
  const file = join(dir, 'plans.json');
  writeFileSync(
    file,
    JSON.stringify({
      plans: {
        ...restrictedPlansFile.plans,
        [SMALL_PLAN]: { display_name: 'Small bulk (tests)', limits: { scheduled_posts_per_month: 3 } },
      },
    }),
  );
  return createHarness({ clock: clock.fn, env: { HERALD_PLANS_FILE: file } });
}

/** A workspace owner on the Pro plan (bulk scheduling, drafts and scheduling), in `timeZone`. */
export async function proUser(h: Harness, timeZone = 'UTC'): Promise<TestUser> {
  const u = await h.signup();
  await h.setPlan(u.workspaceId, 'pro');
  if (timeZone !== 'UTC') {
    const res = await h.req({
      method: 'PATCH',
      url: `/workspaces/${u.workspaceId}`,
      headers: asUser(u),
      payload: { time_zone: timeZone },
    });
    if (res.statusCode !== 200) throw new Error(`time zone: ${res.statusCode} ${res.body}`);
  }
  return u;
}

export const csvLines = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

export function send(
  h: Harness,
  u: TestUser,
  route: 'validate' | 'import',
  body: string | Buffer,
  o: { type?: string; query?: string; headers?: Record<string, string> } = {},
) {
  return h.req({
    method: 'POST',
    url: `/unified/bulk/${route}${o.query ? `?${o.query}` : ''}`,
    headers: { ...asUser(u), 'content-type': o.type ?? 'text/csv', ...o.headers },
    payload: body,
  });
}

export async function scheduledOf(h: Harness, u: TestUser) {
  const res = await h.req({ method: 'GET', url: '/unified/scheduled-posts?limit=100', headers: asUser(u) });
  return res.json().data.scheduled_posts as {
    platform: string;
    scheduled_time: string;
    post_type: string;
    post_data: Record<string, unknown>;
  }[];
}

export async function draftsOf(h: Harness, u: TestUser) {
  const res = await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(u) });
  return res.json().data as { platform: string; status: string; [k: string]: unknown }[];
}
