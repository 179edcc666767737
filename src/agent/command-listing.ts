// The listing commands of the direct commands (agent/commands.ts): accounts, the queue, comments and analytics, with
// the words around them tolerated and nothing else.
import type { NetworkVocabulary } from '../platforms/naming.ts';
import * as fmt from './command-format.ts';
import { ex, words } from './command-words.ts';

const FILLER = new Set([
  'please',
  'pls',
  'can',
  'could',
  'would',
  'you',
  'me',
  'my',
  'our',
  'the',
  'all',
  'list',
  'show',
  'get',
  'give',
  'see',
  'view',
  'what',
  'which',
  'are',
  'is',
  'do',
  'i',
  'we',
  'have',
  'of',
  'thanks',
  'thank',
  'hi',
  'hello',
  'hey',
  'herald',
  'connected',
  'current',
  'now',
  'posts',
  'post',
  'latest',
  'recent',
  'on',
  'for',
  'in',
  'and',
  'to',
  'a',
  'an',
]);

export type Listing =
  | { tool: string; args: Record<string, unknown>; what: string; format: fmt.Format }
  | { help: true }
  | { refusal: string };

export function listingCommand(text: string, v: NetworkVocabulary): Listing | null {
  const all = words(text, v);
  const rest = all.filter((w) => !FILLER.has(w));
  const nets = rest.flatMap((w) => v.words.get(w) ?? []);
  const kinds = new Set(rest.filter((w) => !v.words.has(w)));
  if (!kinds.size && !nets.length) return { help: true };
  const only = (...allowed: string[]) => kinds.size > 0 && [...kinds].every((k) => allowed.includes(k));
  const platforms = [...new Set(nets)];
  if (only('help', 'commands', 'command', 'usage')) return { help: true };
  if (only('accounts', 'account', 'profiles', 'profile', 'connections', 'networks')) {
    return {
      tool: 'get_accounts',
      args: platforms.length === 1 ? { platform: platforms[0] } : {},
      what: 'list the accounts',
      format: fmt.accounts,
    };
  }
  if (only('queue', 'queued', 'upcoming', 'planned', 'pending', 'scheduled', 'drafts', 'draft')) {
    if (platforms.length > 1)
      return {
        refusal: ex('Name one network at a time for the queue (e.g. `list queued posts on {1}`), or none for all.', v),
      };
    const scheduled = kinds.has('scheduled');
    const drafts = kinds.has('drafts') || kinds.has('draft');
    const queued = [...kinds].some((k) => ['queue', 'queued', 'upcoming', 'planned', 'pending'].includes(k));
    const type = queued || (scheduled && drafts) ? 'all' : scheduled ? 'scheduled' : 'draft';
    return {
      tool: 'get_queued_posts',
      args: { type, ...(platforms.length ? { platform: platforms[0] } : {}) },
      what: 'list the queued posts',
      format: fmt.queue,
    };
  }
  if (only('comments', 'comment', 'inbox'))
    return {
      tool: 'get_comments',
      args: platforms.length ? { platforms } : {},
      what: 'read the comments',
      format: fmt.comments,
    };
  if (only('analytics', 'stats', 'statistics', 'metrics', 'performance', 'insights')) {
    return {
      tool: 'get_unified_analytics',
      args: platforms.length ? { platforms } : {},
      what: 'read the analytics',
      format: fmt.analytics,
    };
  }
  return null;
}
