// Facebook's documented errors for what Herald calls on a Page (feed, photos, videos, status reads), from Meta's Graph
// API error reference and the Pages API guides. See ../documented-errors.ts.
import { metaGrantErrors, metaThrottleErrors } from '../meta/documented-errors.ts';
import type { DocumentedError, SimulatedBy } from '../documented-errors.ts';

const fault = (error: string): SimulatedBy => ({ operation: 'publish', fault: 'error', error });
const DAY = 86_400;

export const FACEBOOK_DOCUMENTED_ERRORS: readonly DocumentedError[] = [
  ...metaGrantErrors('after a token check; reconnect if it stays dead'),
  ...metaThrottleErrors(),
  {
    code: '190',
    meaning: 'access token invalid (no subcode)',
    kind: 'auth_expired',
    retry: 'after a token check; reconnect if it stays dead',
    simulated: fault('token_invalid'),
  },
  {
    code: '102',
    meaning: 'session key invalid',
    kind: 'auth_expired',
    retry: 'after a token check; reconnect if it stays dead',
    simulated: fault('session_key'),
  },
  {
    code: '190/459',
    meaning: 'the user is checkpointed',
    kind: 'reauth_required',
    retry: 'no: reconnect',
    words:
      'Facebook has put this account in a security checkpoint: log in on facebook.com and complete it, then reconnect Facebook',
    simulated: fault('checkpointed'),
  },
  {
    code: '190/464',
    meaning: 'the user is not confirmed',
    kind: 'reauth_required',
    retry: 'no: reconnect',
    words:
      'Facebook asks this account to confirm itself: finish the confirmation on facebook.com, then reconnect Facebook',
    simulated: fault('unconfirmed_user'),
  },
  {
    code: '190/492',
    meaning: 'the user behind the Page token lost their role on the Page',
    kind: 'reauth_required',
    retry: 'no: reconnect',
    words:
      'You no longer have a role on this Facebook Page that lets Herald publish: ask a Page admin to give it back, then reconnect Facebook',
    simulated: fault('page_role_lost'),
  },
  { code: '3', meaning: 'capability missing', kind: 'permission', retry: 'no', simulated: fault('capability') },
  {
    code: '100',
    meaning: 'invalid parameter',
    kind: 'invalid_content',
    retry: 'no',
    simulated: fault('invalid_parameter'),
  },
  { code: '1', meaning: 'unknown API error', kind: 'transient', retry: 'retried', simulated: fault('unknown_error') },
  {
    code: '2',
    meaning: 'API service error',
    kind: 'transient',
    retry: 'retried',
    simulated: { operation: 'publish', fault: 'server_error' },
  },
  {
    code: '341',
    meaning: 'application limit reached',
    kind: 'rate_limited',
    retry: 'retried with backoff',
    simulated: fault('app_limit'),
  },
  {
    code: '80001',
    meaning: 'Pages Business Use Case limit (X-Business-Use-Case-Usage)',
    kind: 'rate_limited',
    retry: 'after `estimated_time_to_regain_access`',
    simulated: fault('buc_limit'),
  },
  {
    code: '368',
    meaning: 'temporarily blocked for a policy violation',
    kind: 'rate_limited',
    retry: 'after 24 h',
    retryAfterSeconds: DAY,
    account: true,
    words: 'Facebook temporarily blocked this account from posting for a policy reason; Herald tries again in 24 hours',
    simulated: fault('policy_block'),
  },
  {
    code: '506',
    meaning: 'duplicate post',
    kind: 'invalid_content',
    retry: 'no',
    words: 'Facebook refused this as a duplicate of a recent post on the Page: change the text and publish again',
    simulated: fault('duplicate_post'),
  },
  {
    code: '1609005',
    meaning: 'the link could not be scraped',
    kind: 'invalid_content',
    retry: 'no',
    simulated: fault('link_scrape'),
  },
  {
    code: '1390008',
    meaning: 'posting too fast',
    kind: 'rate_limited',
    retry: 'after 1 h',
    retryAfterSeconds: 3600,
    words: 'Facebook says this Page is posting too fast; Herald tries again in an hour',
    simulated: fault('too_fast'),
  },
  {
    code: '1366046',
    meaning: 'photo too large or in a wrong format (under 4 MB, JPEG or PNG)',
    kind: 'invalid_content',
    retry: 'no',
    simulated: fault('photo_rejected'),
  },
  {
    code: '1404078',
    meaning: 'Page Publishing Authorization required',
    kind: 'permission',
    retry: 'no',
    account: true,
    words:
      'Facebook requires Page Publishing Authorization for this Page: complete it on facebook.com, then publish again',
    simulated: fault('publishing_authorization'),
  },
  {
    code: '4854002',
    meaning: 'identity confirmation required to publish as the Page',
    kind: 'permission',
    retry: 'no',
    account: true,
    words:
      'Facebook asks you to confirm your identity before publishing as this Page: confirm it on facebook.com, then publish again',
    simulated: fault('identity_confirmation'),
  },
  {
    code: '1346003',
    meaning: 'content flagged',
    kind: 'invalid_content',
    retry: 'no',
    words: "Facebook flagged this post's content and did not publish it",
    simulated: fault('content_flagged'),
  },
  {
    code: '1404102',
    meaning: 'against the Community Standards',
    kind: 'invalid_content',
    retry: 'no',
    words: 'Facebook refused this post as against its Community Standards',
    simulated: fault('community_standards'),
  },
];
