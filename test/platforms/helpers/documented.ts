// The table-driven mapping test of a network's documented errors: for each entry the sandbox can produce, the fault is
// armed, the adapter operation runs over real HTTP and its answer is checked against the entry (kind, wait, the
// user's words); an entry the sandbox cannot produce has its documented answer fed to the adapter's error mapping.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isSimulated, type DocumentedError } from '../../../src/platforms/documented-errors.ts';
import type { HttpResponse } from '../../../src/platforms/http.ts';
import type { Journal, PublishOutcome, PublishRequest, Publisher } from '../../../src/platforms/publishing.ts';
import { PlatformError, type TokenSet } from '../../../src/platforms/types.ts';
import type { Platform } from '../../../src/platforms/slugs.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';

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
  expect(e.accountCondition, `${d.code}: a state of the account`).toBe(d.account === true);
}

/** The PlatformError a mapping function throws (the readers of some adapters throw rather than return). */
export function thrown(call: () => unknown): PlatformError {
  try {
    call();
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error('the mapping threw no PlatformError');
}

/** Publishes, and reads the status once when the network is still processing (processing is synchronous here). */
export async function publishSettled(
  publisher: Publisher,
  tokens: TokenSet,
  req: PublishRequest,
  journal: Journal,
): Promise<PublishOutcome> {
  const first = await publisher.publish(tokens, req, journal);
  return first.state === 'processing' && publisher.checkStatus
    ? publisher.checkStatus(tokens, first.handle, req, journal)
    : first;
}

/**
 * One test per documented entry, against a sandbox of its own. Before each entry the sandbox is reset with
 * synchronous processing, then `setup` connects and prepares the run for that entry.
 */
export function documentedErrorTests(input: {
  platform: Platform;
  table: readonly DocumentedError[];
  /** The file's own sandbox, when other tests of the file share it (its `setup` prepares the state each entry needs); otherwise the entries get one of their own, reset before each. */
  sandbox?: () => TestSandbox;
  setup: (sb: TestSandbox, d: DocumentedError) => Promise<DocumentedRun>;
  map(res: HttpResponse, sb: TestSandbox): PlatformError;
}): void {
  let own: TestSandbox | undefined;
  if (!input.sandbox) {
    beforeAll(async () => {
      own = await startSandbox({ processingMs: 0 });
    });
    afterAll(() => own?.close());
  }
  const sandboxOf = (): TestSandbox => input.sandbox?.() ?? own!;
  for (const d of input.table) {
    it(`${d.code}: ${d.meaning} → ${d.kind}`, async () => {
      const s = d.simulated;
      if (!('operation' in s)) {
        const res = {
          status: s.status,
          headers: new Headers(),
          data: s.body,
          text: JSON.stringify(s.body),
        } as HttpResponse;
        expectDocumented(d, input.map(res, sandboxOf()));
        return;
      }
      const sb = sandboxOf();
      if (!input.sandbox) {
        await sb.reset();
        await sb.configure({ processingMs: { [input.platform]: 0 } });
      }
      const flow = await input.setup(sb, d);
      await armDocumented(sb, input.platform, d);
      const outcome = await flow.run(d.via ?? 'publish').then(
        (v) => v,
        (e: unknown) => e,
      );
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
