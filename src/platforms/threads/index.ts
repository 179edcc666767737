// Threads profiles through the Threads API (graph.threads.net).
import type { AdapterFactory } from '../types.ts';
import { threadsAccount } from './account.ts';
import { threadsAuth } from './auth.ts';
import { threadsPublisher } from './publish.ts';

export { THREADS_API_VERSION, THREADS_SCOPES } from './config.ts';

export const threadsAdapter: AdapterFactory = (deps) => ({
  platform: 'threads',
  displayName: 'Threads',
  capabilities: {
    postTypes: ['text', 'image', 'carousel', 'video'],
    // 500 characters, but Threads charges an emoji its UTF-8 byte length; no unit captures that exactly, and bytes
    // would refuse valid non-Latin text, so graphemes it is and emoji-heavy posts may still be refused by Threads.
    text: { max: 500, unit: 'graphemes' },
    // Containers are processed (IN_PROGRESS → FINISHED) before threads_publish.
    asyncProcessing: true,
  },
  auth: threadsAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: threadsAccount(deps),
  publisher: threadsPublisher(deps),
});
