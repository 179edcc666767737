// Every error LinkedIn documents for the Posts, Images and Videos calls Herald makes, injected into the LinkedIn
// simulator over real HTTP and read by the adapter's publisher (an image post: the upload, then the post): kind, wait
// and the user's words as src/platforms/linkedin/documented-errors.ts says.
import { describe } from 'vitest';
import { LINKEDIN_DOCUMENTED_ERRORS } from '../../../src/platforms/linkedin/documented-errors.ts';
import { linkedinError } from '../../../src/platforms/linkedin/errors.ts';
import { linkedinAdapter } from '../../../src/platforms/linkedin/index.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { fixtureMedia, jpegImage, memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests } from '../helpers/documented.ts';

describe('linkedin: documented errors', () => {
  documentedErrorTests({
    platform: 'linkedin',
    table: LINKEDIN_DOCUMENTED_ERRORS,
    map: (res) => linkedinError(res),
    async setup(sb) {
      const adapter = linkedinAdapter(sandboxDeps(sb, 'linkedin'));
      const tokens = await connectThrough(sb, adapter);
      const media = fixtureMedia(sb, { name: 'doc.jpg', bytes: await jpegImage(), kind: 'image', mime: 'image/jpeg', format: 'jpeg', width: 64, height: 48 });
      const journal = memoryJournal();
      const req = { postType: 'image' as const, text: 'Documented', media: [media], options: {}, targetId: 'tgt_li_doc', destination: { kind: 'personal' as const, id: 'me' } };
      return { run: () => publisherOf(adapter).publish(tokens, req, journal) };
    },
  });
});
