// Every error Facebook documents for what Herald calls on a Page, injected into the Facebook simulator over real HTTP
// and read by the adapter's publisher: kind, wait and the user's words as src/platforms/facebook/documented-errors.ts
// says.
import { describe } from 'vitest';
import { FACEBOOK_DOCUMENTED_ERRORS } from '../../../src/platforms/facebook/documented-errors.ts';
import { facebookError } from '../../../src/platforms/facebook/errors.ts';
import { facebookAdapter } from '../../../src/platforms/facebook/index.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests } from '../helpers/documented.ts';

describe('facebook: documented errors', () => {
  documentedErrorTests({
    platform: 'facebook',
    table: FACEBOOK_DOCUMENTED_ERRORS,
    map: (res) => facebookError(res),
    async setup(sb) {
      const adapter = facebookAdapter(sandboxDeps(sb, 'facebook'));
      const tokens = await connectThrough(sb, adapter);
      const page = (await adapter.fetchAccount(tokens)).destinations.find((d) => d.kind === 'page')?.id ?? '';
      const journal = memoryJournal();
      const req = {
        postType: 'text' as const,
        text: 'Documented',
        media: [],
        options: {},
        targetId: 'tgt_fb_doc',
        destination: { kind: 'page' as const, id: page },
      };
      return { run: () => publisherOf(adapter).publish(tokens, req, journal) };
    },
  });
});
