// Standard Webhooks signing (https://www.standardwebhooks.com) through the maintained `standardwebhooks` package:
// `webhook-signature` is `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated, so during a
// rotation a receiver holding either the old or the new secret verifies the same request.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

// Loaded by the first delivery signed, not at start-up.
const load = createRequire(import.meta.url);
type Webhook = import('standardwebhooks').Webhook;
const webhook = (secret: string): Webhook =>
  new (load('standardwebhooks') as typeof import('standardwebhooks')).Webhook(secret);

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes, base64, with the spec's `whsec_` prefix. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt, signed with every secret given (the current one first). */
export function signDelivery(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  // The spec's timestamp is whole seconds; signing with the same rounded time keeps header and signature in step.
  const seconds = Math.floor(at.getTime() / 1000);
  const when = new Date(seconds * 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((s) => webhook(s).sign(id, when, body)).join(' '),
  };
}
