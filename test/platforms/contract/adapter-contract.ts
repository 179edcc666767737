// The adapter contract, run for one network against its simulator over real HTTP on loopback: auth (connect,
// refresh, revoke), every post type the adapter declares, a crash at each journal step followed by the recovery the
// target runner performs (reconcile, else publish again from the journal) ending in exactly one post, and the
// mapping of the network's throttling, server errors and expired tokens to PlatformError kinds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostType, PublishOutcome, PublishRequest, Publisher } from '../../../src/platforms/publishing.ts';
import type { AccountIdentity, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { PlatformError } from '../../../src/platforms/types.ts';
import { startSandbox } from '../../helpers/sandbox.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { cannedDeps, expectPlatformError, sandboxDeps } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf, SimulatedCrash } from '../helpers/publish-fixtures.ts';
import type { MemoryJournal } from '../helpers/publish-fixtures.ts';
import type { ContractProfile } from './profiles.ts';
import { publishThrough, sampleRequest } from './sample-post.ts';

const DAY = 86_400;
const sandboxDepsOf = (sb: TestSandbox, net: string) => sandboxDeps(sb, net as Parameters<typeof sandboxDeps>[1]);

export function describeAdapterContract(profile: ContractProfile): void {
  const net = profile.slug;
  // Capabilities are data: read them off an adapter that never makes a call, to know which cases to generate.
  const declared = profile.factory(cannedDeps({ status: 500, body: {} })).capabilities.postTypes;
  let sb: TestSandbox;
  let adapter: PlatformAdapter;
  let publisher: Publisher;
  let tokens: TokenSet;
  let account: AccountIdentity;

  /** A clean network (no posts, no faults, the clock at START, processing done at once) and a new connection. */
  async function fresh(): Promise<void> {
    await sb.reset();
    await sb.configure({ processingMs: 0 });
    if (profile.lenient?.length) await sb.lenient(...profile.lenient);
    adapter = profile.adapter(sb);
    tokens = await profile.connect(sb, adapter);
    account = await adapter.fetchAccount(tokens);
    publisher = publisherOf(adapter);
  }

  const request = (postType: PostType): Promise<PublishRequest> => sampleRequest(sb, profile, account, postType);
  const publishAll = (req: PublishRequest, journal: MemoryJournal, with_ = () => tokens): Promise<PublishOutcome> =>
    publishThrough(sb, publisher, with_, req, journal);

  const posts = async () => (await sb.state(net)).posts;
  /** Whether this connection's grant can be refreshed (a LinkedIn grant without a refresh token cannot). */
  const refreshable = (): boolean =>
    Boolean(adapter.auth.refresh) && (adapter.auth.kind !== 'oauth2' || adapter.auth.canRefresh?.(tokens) !== false);

  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(fresh);

  describe(`${net} adapter contract: auth`, () => {
    it('connects: the tokens open the account, which has an id and a name', async () => {
      expect(tokens.accessToken).toEqual(expect.any(String));
      expect(account).toMatchObject({ id: expect.stringMatching(/\S/), name: expect.any(String) });
      expect(adapter.configured).toBe(true);
    });

    it('refreshes an aged grant into one that lives longer, or has no refresh and says an expired token needs a reconnect', async () => {
      sb.advance(2 * DAY);
      if (!refreshable()) {
        await sb.fault({ platform: net, operation: 'profile', fault: 'expire_token' });
        const err = await adapter.fetchAccount(tokens).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(PlatformError);
        // Without refresh at all: a reconnect. With refresh but not for this grant: expired, which Herald's
        // TokenKeeper then turns into a reconnect since nothing can refresh it.
        expect(adapter.auth.refresh ? ['auth_expired', 'reauth_required'] : ['reauth_required']).toContain(
          (err as PlatformError).kind,
        );
        return;
      }
      const refreshed = await adapter.auth.refresh!(tokens);
      // Never shorter-lived (Facebook's long-lived user token keeps its expiry when exchanged again).
      if (tokens.expiresAt) expect(refreshed.expiresAt?.getTime()).toBeGreaterThanOrEqual(tokens.expiresAt.getTime());
      expect((await adapter.fetchAccount(refreshed)).id).toBe(account.id);
    });

    it("a refresh refused for the server's own app credentials (invalid_client) is a configuration problem, not the user's grant", async () => {
      if (!refreshable() || adapter.auth.kind !== 'oauth2') return;
      sb.advance(2 * DAY);
      // The same network, with an app secret it does not know.
      const misconfigured = profile.factory({
        ...sandboxDepsOf(sb, net),
        config: { ...sandboxDepsOf(sb, net).config, clientSecret: 'not-the-secret' },
      });
      const outcome = await misconfigured.auth.refresh!(tokens).then(
        () => null,
        (e: unknown) => e,
      );
      // Some networks' refresh takes no app credentials at all (Instagram's and Threads' token refresh).
      if (outcome === null) return;
      expect(outcome).toBeInstanceOf(PlatformError);
      const err = outcome as PlatformError;
      expect(err.serverConfig, `${err.kind} ${err.code} ${err.message}`).toBe(true);
      expect(err.kind).not.toBe('reauth_required');
    });

    if (profile.factory(cannedDeps({ status: 500, body: {} })).auth.revoke) {
      it('revokes the grant: neither its refresh nor (unless short-lived and kept) its access token works afterwards', async () => {
        await adapter.auth.revoke!(tokens);
        if (adapter.auth.refresh) await expectPlatformError(adapter.auth.refresh(tokens), 'reauth_required');
        if (profile.revokeKeepsAccessToken) return;
        const err = await adapter.fetchAccount(tokens).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(PlatformError);
        expect(['reauth_required', 'auth_expired']).toContain((err as PlatformError).kind);
      });
    }
  });

  describe(`${net} adapter contract: post types`, () => {
    for (const postType of declared) {
      it(`${postType}: published once; reconcile and a second publish with the same journal find that same post`, async () => {
        const req = await request(postType);
        const journal = memoryJournal();
        const out = await publishAll(req, journal);
        expect(out).toMatchObject({ state: 'published', postId: expect.stringMatching(/\S/) });
        expect(await posts()).toHaveLength(1);
        if (publisher.reconcile && out.state === 'published') {
          expect(await publisher.reconcile(tokens, req, journal)).toMatchObject({ postId: out.postId });
        }
        // Publishing again with the finished journal (a retry after the answer reached Herald) answers the same post.
        expect(await publishAll(req, journal)).toMatchObject({
          state: 'published',
          postId: out.state === 'published' ? out.postId : '',
        });
        expect(await posts()).toHaveLength(1);
      });
    }
  });

  describe(`${net} adapter contract: a crash at each journal step`, () => {
    for (const postType of declared) {
      it(`${postType}: a crash right after, or instead of, each journaled step ends in exactly one post`, async () => {
        const clean = memoryJournal();
        await publishAll(await request(postType), clean);
        const steps = [...new Set(clean.log.map(([step]) => step))];
        expect(steps.length).toBeGreaterThan(0);
        const gaps = (profile.lostAnswerGaps ?? [])
          .filter((g) => g.startsWith(`${postType}:`))
          .map((g) => g.slice(postType.length + 1));
        for (const gap of gaps)
          expect(steps, `the known gap ${postType}:${gap} names a step this flow journals`).toContain(gap);
        for (const step of steps) {
          for (const when of gaps.includes(step) ? (['after'] as const) : (['after', 'instead of'] as const)) {
            const label = `crash ${when} journaling ${step}`;
            await fresh();
            const req = await request(postType);
            const journal = memoryJournal();
            if (when === 'after') journal.crashAfter = step;
            else journal.crashBefore = step;
            await expect(publishAll(req, journal), label).rejects.toBeInstanceOf(SimulatedCrash);
            // The runner's recovery: ask the network first, publish again from the journal only if it has no trace.
            const found = publisher.reconcile ? await publisher.reconcile(tokens, req, journal) : null;
            const out = found ? { state: 'published', ...found } : await publishAll(req, journal);
            expect(out, label).toMatchObject({ state: 'published' });
            expect(await posts(), label).toHaveLength(1);
          }
        }
      });
    }
  });

  describe(`${net} adapter contract: media on a private address (strict public_media_only)`, () => {
    for (const postType of declared.filter((t) => t !== 'text')) {
      const pulled = profile.pullsMedia?.includes(postType) === true;
      it(`${postType}: ${pulled ? 'the network cannot fetch it: invalid content, nothing posted, no retry' : "published (Herald uploads the bytes, or the simulator does not fetch this network's media URLs)"}`, async () => {
        await sb.configure({ strict: { public_media_only: true }, publicHosts: [] });
        const outcome = await publishAll(await request(postType), memoryJournal()).then(
          (o) => o,
          (e: unknown) => e,
        );
        if (!pulled) {
          expect(outcome).toMatchObject({ state: 'published' });
          expect(await posts()).toHaveLength(1);
          return;
        }
        expect(outcome).toBeInstanceOf(PlatformError);
        expect((outcome as PlatformError).kind).toBe('invalid_content');
        expect((outcome as PlatformError).retryable).toBe(false);
        expect(await posts()).toHaveLength(0);
      });
    }
  });

  describe(`${net} adapter contract: error mapping`, () => {
    const first = declared[0]!;

    async function retried(req: PublishRequest, journal: MemoryJournal, fresher = () => tokens): Promise<void> {
      expect(await publishAll(req, journal, fresher)).toMatchObject({ state: 'published' });
      expect(await posts()).toHaveLength(1);
    }

    for (const [fault, kind] of [
      ['rate_limit', 'rate_limited'],
      ['server_error', 'transient'],
    ] as const) {
      it(`${fault}: a retryable ${kind} error, and the retry publishes exactly once`, async () => {
        const req = await request(first);
        const journal = memoryJournal();
        await sb.fault({ platform: net, operation: 'publish', fault });
        const err = await expectPlatformError(publishAll(req, journal), kind, [
          tokens.accessToken,
          tokens.refreshToken,
        ]);
        expect(err.retryable).toBe(true);
        // The wait is the network's to give (Bluesky's ratelimit-reset); others leave it to Herald's backoff.
        if (fault === 'rate_limit' && profile.rateLimitSaysWhen) expect(err.retryAfterSeconds).toBeGreaterThan(0);
        if (fault === 'rate_limit' && !profile.rateLimitSaysWhen) expect(err.retryAfterSeconds).toBeUndefined();
        await retried(req, journal);
      });
    }

    it('an expired token: refresh and retry where the network refreshes, else a reconnect', async () => {
      const req = await request(first);
      const journal = memoryJournal();
      await sb.fault({ platform: net, operation: 'publish', fault: 'expire_token' });
      if (!refreshable()) {
        if (adapter.auth.refresh) {
          await expectPlatformError(publishAll(req, journal), 'auth_expired', [tokens.accessToken]);
          return;
        }
        const err = await expectPlatformError(publishAll(req, journal), 'reauth_required', [tokens.accessToken]);
        expect(err.retryable).toBe(false);
        return;
      }
      const err = await expectPlatformError(publishAll(req, journal), 'auth_expired', [
        tokens.accessToken,
        tokens.refreshToken,
      ]);
      expect(err.retryable).toBe(true);
      if (profile.expiredTokenNeedsReconnect) {
        await expectPlatformError(adapter.auth.refresh!(tokens), 'reauth_required', [tokens.accessToken]);
        return;
      }
      const refreshed = await adapter.auth.refresh!(tokens);
      await retried(req, journal, () => refreshed);
    });
  });
}
