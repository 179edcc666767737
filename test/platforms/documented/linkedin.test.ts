// Every error LinkedIn documents for what Herald calls, injected into the LinkedIn simulator over real HTTP and read by
// the adapter (connect, refresh, publishing with image uploads, comments): kind, wait and the user's words as
// src/platforms/linkedin/documented-errors.ts says. Then what the duplicate and conflict rows promise beyond the error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKEDIN_DOCUMENTED_ERRORS } from '../../../src/platforms/linkedin/documented-errors.ts';
import { linkedinError } from '../../../src/platforms/linkedin/errors.ts';
import { linkedinAdapter } from '../../../src/platforms/linkedin/index.ts';
import type { PublishRequest } from '../../../src/platforms/publishing.ts';
import type { OAuth2Auth } from '../../../src/platforms/types.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { documentedErrorTests } from '../helpers/documented.ts';
import { expectNewUpload } from './renewed.ts';
import { connectThrough, expectPlatformError, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ processingMs: 0 });
});
afterAll(() => sb.close());

async function connected() {
  await sb.reset();
  await sb.configure({ processingMs: { linkedin: 0 } });
  const adapter = linkedinAdapter(sandboxDeps(sb, 'linkedin'));
  const tokens = await connectThrough(sb, adapter);
  const orgId = (await adapter.fetchAccount(tokens)).destinations[0]?.id ?? '';
  return { adapter, tokens, orgId, publisher: publisherOf(adapter) };
}

async function imageRequest(targetId = 'tgt_li_doc'): Promise<PublishRequest> {
  const photo = fixtureMedia(sb, {
    name: 'doc.jpg',
    bytes: await jpegImage(),
    kind: 'image',
    mime: 'image/jpeg',
    format: 'jpeg',
    width: 64,
    height: 48,
  });
  return {
    postType: 'image',
    text: 'Documented',
    media: [photo],
    options: {},
    targetId,
    destination: { kind: 'personal', id: 'me' },
  };
}

describe('linkedin: documented errors', () => {
  documentedErrorTests({
    platform: 'linkedin',
    table: LINKEDIN_DOCUMENTED_ERRORS,
    sandbox: () => sb,
    map: (res) => linkedinError(res, 'api', sb.clock),
    async setup(_sb, d) {
      const { adapter, tokens, orgId, publisher } = await connected();
      const req = await imageRequest();
      const journal = memoryJournal();
      return {
        async run(via) {
          if (via === 'connect') return connectThrough(sb, adapter);
          if (via === 'refresh') return (adapter.auth as OAuth2Auth).refresh!(tokens);
          if (via === 'comments') {
            return adapter.engagement!.comments!.list(tokens, {
              postId: 'urn:li:share:7000000000000000000',
              limit: 10,
              destination: { kind: 'organization', id: orgId },
            });
          }
          return publisher.publish(tokens, req, journal);
        },
        async renewed() {
          expect(d.code).toBe('EXPIRED_UPLOAD_URL');
          await expectNewUpload(sb, 'linkedin', 'image');
        },
      };
    },
  });
});

describe('linkedin: duplicates and write conflicts', () => {
  it('a duplicate of a post Herald did not attempt is refused with what to do; after its own attempt the named post is adopted', async () => {
    const { tokens, publisher } = await connected();
    const text: PublishRequest = {
      postType: 'text',
      text: 'Same words',
      media: [],
      options: {},
      targetId: 'tgt_a',
      destination: { kind: 'personal', id: 'me' },
    };
    const first = await publisher.publish(tokens, text, memoryJournal());
    expect(first.state).toBe('published');
    // Another target with the same words within 10 minutes: LinkedIn's 422 names the first post.
    const err = await expectPlatformError(
      publisher.publish(tokens, { ...text, targetId: 'tgt_b' }, memoryJournal()),
      'invalid_content',
    );
    expect(err.code).toBe('DUPLICATE_POST');
    expect(err.message).toContain(first.state === 'published' ? first.postId : '');
    // The same target's lost attempt (journaled) answered as a duplicate: the earlier post is this one.
    const lost = memoryJournal({ 'post:attempt': sb.clock().toISOString() });
    expect(await publisher.publish(tokens, { ...text, targetId: 'tgt_a' }, lost)).toMatchObject({
      state: 'published',
      postId: first.state === 'published' ? first.postId : '',
    });
  });

  it('409 CONFLICT is retried, and the retry publishes one post', async () => {
    const { tokens, publisher } = await connected();
    const req: PublishRequest = {
      postType: 'text',
      text: 'Conflicted',
      media: [],
      options: {},
      targetId: 'tgt_c',
      destination: { kind: 'personal', id: 'me' },
    };
    const journal = memoryJournal();
    await sb.control('POST', '_faults', {
      platform: 'linkedin',
      operation: 'publish',
      fault: 'error',
      error: 'write_conflict',
    });
    await expectPlatformError(publisher.publish(tokens, req, journal), 'transient');
    expect((await publisher.publish(tokens, req, journal)).state).toBe('published');
    expect((await sb.state('linkedin')).posts).toHaveLength(1);
  });
});
