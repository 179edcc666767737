// Every error Pinterest documents for what Herald calls, injected into the Pinterest simulator over real HTTP and read
// by the adapter (refresh, the account, image and video pins with the S3 upload): kind, wait and the user's words as
// src/platforms/pinterest/documented-errors.ts says.
import { afterAll, beforeAll, describe } from 'vitest';
import type { HttpResponse } from '../../../src/platforms/http.ts';
import { PINTEREST_DOCUMENTED_ERRORS } from '../../../src/platforms/pinterest/documented-errors.ts';
import { readApi } from '../../../src/platforms/pinterest/errors.ts';
import { pinterestAdapter } from '../../../src/platforms/pinterest/index.ts';
import { s3Failure } from '../../../src/platforms/pinterest/media.ts';
import type { PublishRequest } from '../../../src/platforms/publishing.ts';
import type { OAuth2Auth } from '../../../src/platforms/types.ts';
import type { PlatformError } from '../../../src/platforms/types.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';
import { documentedErrorTests } from '../helpers/documented.ts';
import { expectNewUpload } from './renewed.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal, mp4Video, publisherOf } from '../helpers/publish-fixtures.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ processingMs: 0 });
});
afterAll(() => sb.close());

/** An API answer is read by readApi; an S3 answer (XML text) by the upload's reader. */
function mapped(res: HttpResponse): PlatformError {
  if (typeof res.data === 'string') return s3Failure({ ...res, text: res.data } as HttpResponse);
  try {
    readApi(res, 'documented');
  } catch (err) {
    return err as PlatformError;
  }
  throw new Error('readApi accepted an error answer');
}

describe('pinterest: documented errors', () => {
  documentedErrorTests({
    platform: 'pinterest',
    table: PINTEREST_DOCUMENTED_ERRORS,
    sandbox: () => sb,
    map: mapped,
    async setup(_sb, d) {
      await sb.reset();
      await sb.configure({ processingMs: { pinterest: 0 } });
      const adapter = pinterestAdapter(sandboxDeps(sb, 'pinterest'));
      const tokens = await connectThrough(sb, adapter);
      const boardId = (await adapter.fetchAccount(tokens)).destinations.find((x) => x.kind === 'board')?.id ?? '';
      const video = 'operation' in d.simulated && d.simulated.operation === 'upload';
      const media = video
        ? fixtureMedia(sb, {
            name: 'doc.mp4',
            bytes: await mp4Video({ mdatBytes: 20_000 }),
            kind: 'video',
            mime: 'video/mp4',
            format: 'mp4',
            durationSec: 5,
          })
        : fixtureMedia(sb, {
            name: 'doc.jpg',
            bytes: await jpegImage(),
            kind: 'image',
            mime: 'image/jpeg',
            format: 'jpeg',
          });
      const req: PublishRequest = {
        postType: video ? 'video' : 'image',
        text: 'Documented',
        title: 'Documented',
        media: [media],
        options: {},
        targetId: 'tgt_pin_doc',
        destination: { kind: 'board', id: boardId },
      };
      const journal = memoryJournal();
      const publisher = publisherOf(adapter);
      return {
        async run(via) {
          if (via === 'refresh') return (adapter.auth as OAuth2Auth).refresh!(tokens);
          if (via === 'account') return adapter.fetchAccount(tokens);
          const out = await publisher.publish(tokens, req, journal);
          return out.state === 'processing' ? publisher.checkStatus!(tokens, out.handle, req, journal) : out;
        },
        async renewed() {
          // The retry registered the video anew: the expired policy's upload is never pinned.
          await expectNewUpload(sb, 'pinterest', 'video');
        },
      };
    },
  });
});
