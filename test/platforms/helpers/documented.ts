// The table-driven mapping test of a network's documented errors: for each entry the sandbox can produce, the fault is
// armed, the adapter operation runs over real HTTP and its answer is checked against the entry (kind, wait, the
// user's words); an entry the sandbox cannot produce has its documented answer fed to the adapter's error mapping.
import { expect, it } from 'vitest';
import { isSimulated, type DocumentedError } from '../../../src/platforms/documented-errors.ts';
import type { HttpResponse } from '../../../src/platforms/http.ts';
import type { PublishOutcome } from '../../../src/platforms/publishing.ts';
import { PlatformError } from '../../../src/platforms/types.ts';
import type { Platform } from '../../../src/platforms/slugs.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';

export interface DocumentedRun {
  /** Runs the entry's `via` operation (`publish` unless it says otherwise) once; a second call continues its journal. */
  run(via: string): Promise<PublishOutcome | unknown>;
  /** After a `new container` entry: what shows the retry did not reuse what the error condemned. */
  renewed?(): Promise<void>;
}

export async function armDocumented(sb: TestSandbox, platform: Platform, d: DocumentedError): Promise<void> {
  if (!isSimulated(d)) return;
  const { operation, fault, error } = d.simulated;
  const res = await sb.control('POST', '_faults', { platform, operation, fault, ...(error ? { error } : {}) });
  expect(res.status, `${d.code}: ${await res.clone().text()}`).toBe(201);
}

export function expectDocumented(d: DocumentedError, err: unknown): void {
  expect(err, d.code).toBeInstanceOf(PlatformError);
  const e = err as PlatformError;
  expect({ code: d.code, kind: e.kind }).toEqual({ code: d.code, kind: d.kind });
  expect(e.retryable, d.code).toBe(d.kind === 'transient' || d.kind === 'rate_limited' || d.kind === 'auth_expired');
  if (d.retryAfterSeconds !== undefined) expect(e.retryAfterSeconds, d.code).toBe(d.retryAfterSeconds);
  if (d.words !== undefined) expect(e.message.startsWith(d.words), `${d.code}: ${e.message}`).toBe(true);
}

/** One test per documented entry. `setup` runs before each (a fresh sandbox state and connection for that entry). */
export function documentedErrorTests(input: {
  platform: Platform;
  table: readonly DocumentedError[];
  sandbox: () => TestSandbox;
  setup: (d: DocumentedError) => Promise<DocumentedRun>;
  map(res: HttpResponse): PlatformError;
}): void {
  for (const d of input.table) {
    it(`${d.code}: ${d.meaning} → ${d.kind}`, async () => {
      const s = d.simulated;
      if (!('operation' in s)) {
        const res = { status: s.status, headers: new Headers(), data: s.body, text: JSON.stringify(s.body) } as HttpResponse;
        expectDocumented(d, input.map(res));
        return;
      }
      const sb = input.sandbox();
      const flow = await input.setup(d);
      await armDocumented(sb, input.platform, d);
      const outcome = await flow.run(d.via ?? 'publish').then((v) => v, (e: unknown) => e);
      // The armed answer reached the adapter: the fault was spent.
      const armed = (await (await sb.control('GET', '_faults')).json()) as { faults: unknown[] };
      expect(armed.faults, d.code).toEqual([]);
      if (d.outcome) {
        expect(outcome, d.code).toMatchObject({ state: d.outcome });
        return;
      }
      expectDocumented(d, outcome);
      if (d.retry === 'new container') {
        expect(await flow.run(d.via ?? 'publish'), d.code).toMatchObject({ state: 'published' });
        await flow.renewed?.();
      }
    });
  }
}
