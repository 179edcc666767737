// Every error Facebook documents for what Herald calls on a Page, injected into the Facebook simulator over real HTTP
// and read by the adapter's publisher: kind, wait and the user's words as src/platforms/facebook/documented-errors.ts
// says.
import { afterAll, beforeAll, describe } from 'vitest';
import { FACEBOOK_DOCUMENTED_ERRORS } from '../../../src/platforms/facebook/documented-errors.ts';
import { facebookError } from '../../../src/platforms/facebook/errors.ts';
import { facebookAdapter } from '../../../src/platforms/facebook/index.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';
import { memoryJournal, publisherOf } from '../helpers/publish-fixtures.ts';
import { documentedErrorTests } from '../helpers/documented.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({ processingMs: 0 });
});
afterAll(() => sb.close());

describe('facebook: documented errors', () => {
  documentedErrorTests({
    platform: 'facebook',
    table: FACEBOOK_DOCUMENTED_ERRORS,
    sandbox: () => sb,
    map: (res) => facebookError(res),
    async setup() {
      await sb.reset();
      const adapter = facebookAdapter(sandboxDeps(sb, 'facebook'));
      const tokens = await connectThrough(sb, adapter);
      const page = (await adapter.fetchAccount(tokens)).destinations.find((d) => d.kind === 'page')?.id ?? '';
      const publisher = publisherOf(adapter);
      const journal = memoryJournal();
      return {
        run: () => publisher.publish(tokens, { postType: 'text', text: 'Documented', media: [], options: {}, targetId: 'tgt_fb_doc', destination: { kind: 'page', id: page } }, journal),
      };
    },
  });
});
