// Every error Pinterest documents for what Herald calls, injected into the Pinterest simulator over real HTTP and read
// by the adapter's publisher (an image Pin; `via: video` entries a video Pin): kind, wait and the user's words as
// src/platforms/pinterest/documented-errors.ts says.
import { describe } from 'vitest';
import { PINTEREST_DOCUMENTED_ERRORS } from '../../../src/platforms/pinterest/documented-errors.ts';
import { readApi } from '../../../src/platforms/pinterest/errors.ts';
import { pinterestAdapter } from '../../../src/platforms/pinterest/index.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal, mp4Video, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests, publishSettled, thrown } from '../helpers/documented.ts';

describe('pinterest: documented errors', () => {
  documentedErrorTests({
    platform: 'pinterest',
    table: PINTEREST_DOCUMENTED_ERRORS,
    map: (res) => thrown(() => readApi(res, 'pin')),
    async setup(sb) {
      const adapter = pinterestAdapter(sandboxDeps(sb, 'pinterest'));
      const tokens = await connectThrough(sb, adapter);
      const board = (await adapter.fetchAccount(tokens)).destinations.find((d) => d.kind === 'board')?.id ?? '';
      const photo = fixtureMedia(sb, { name: 'doc.jpg', bytes: await jpegImage(), kind: 'image', mime: 'image/jpeg', format: 'jpeg', altText: 'alt' });
      const clip = fixtureMedia(sb, { name: 'doc.mp4', bytes: await mp4Video({ mdatBytes: 200_000 }), kind: 'video', mime: 'video/mp4', format: 'mp4', durationSec: 12.5 });
      const journal = memoryJournal();
      return {
        run: (via) =>
          publishSettled(publisherOf(adapter), tokens, { postType: via === 'video' ? 'video' : 'image', text: 'Documented', description: 'Documented', title: 'Documented', media: [via === 'video' ? clip : photo], options: {}, targetId: 'tgt_pin_doc', destination: { kind: 'board', id: board } }, journal),
      };
    },
  });
});
