// Error reading and DID-document parsing of the Bluesky adapter, for the shapes neither the simulator nor the local
// PDS produce on demand (takedowns, upstream failures, did:web documents).
import { describe, expect, it } from 'vitest';
import { blueskyError } from '../../src/platforms/bluesky/errors.ts';
import type { XrpcContext } from '../../src/platforms/bluesky/errors.ts';
import { isSupportedDid, normalizeHandle, pdsEndpoint } from '../../src/platforms/bluesky/identity.ts';
import type { HttpResponse } from '../../src/platforms/http.ts';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;

function response(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    status,
    headers: new Headers(headers),
    url: 'https://pds.example/xrpc/x',
    text: JSON.stringify(body),
    data: body,
  };
}

function read(status: number, error: string | undefined, context: XrpcContext, headers?: Record<string, string>) {
  const err = blueskyError(
    response(status, error ? { error, message: `${error} happened` } : {}, headers),
    context,
    NOW,
  );
  return { kind: err.kind, code: err.code, retryAfterSeconds: err.retryAfterSeconds, message: err.message };
}

describe('bluesky error reading', () => {
  it.each([
    [400, 'ExpiredToken', 'access', 'auth_expired'],
    [400, 'InvalidToken', 'access', 'auth_expired'],
    [400, 'ExpiredToken', 'refresh', 'reauth_required'],
    [400, 'InvalidToken', 'refresh', 'reauth_required'],
    [401, 'AuthenticationRequired', 'login', 'invalid_content'],
    [401, 'AuthFactorTokenRequired', 'login', 'invalid_content'],
    [401, 'AuthMissing', 'access', 'auth_expired'],
    [401, 'AuthMissing', 'refresh', 'reauth_required'],
    [401, 'AccountTakedown', 'login', 'reauth_required'],
    [400, 'AccountDeactivated', 'access', 'reauth_required'],
    [400, 'InvalidRequest', 'access', 'invalid_content'],
    [413, 'PayloadTooLarge', 'access', 'invalid_content'],
    [400, 'RecordNotFound', 'public', 'not_found'],
    [403, undefined, 'access', 'permission'],
    [500, 'InternalServerError', 'access', 'transient'],
    [502, 'UpstreamFailure', 'access', 'transient'],
    [504, 'UpstreamTimeout', 'access', 'transient'],
    [501, 'MethodNotImplemented', 'access', 'unsupported'],
  ] as const)('HTTP %i %s (%s) → %s', (status, error, context, kind) => {
    expect(read(status, error, context).kind).toBe(kind);
  });

  it('names the credential problem at login without echoing anything', () => {
    expect(read(401, 'AuthenticationRequired', 'login').message).toBe('Invalid handle or app password');
    expect(read(401, 'AuthFactorTokenRequired', 'login').message).toMatch(/app password/);
  });

  it('keeps the network error name as the code, and only well-formed names', () => {
    expect(read(400, 'ExpiredToken', 'access').code).toBe('ExpiredToken');
    expect(blueskyError(response(400, { error: 'bad name <script>' }), 'access', NOW).code).toBeUndefined();
  });

  it('reads RateLimit-Reset as an epoch second, or a delta when small, and falls back to Retry-After', () => {
    expect(read(429, 'RateLimitExceeded', 'login', { 'ratelimit-reset': String(NOW_S + 120) }).retryAfterSeconds).toBe(
      120,
    );
    expect(read(429, 'RateLimitExceeded', 'login', { 'ratelimit-reset': String(NOW_S - 5) }).retryAfterSeconds).toBe(0);
    expect(read(429, 'RateLimitExceeded', 'login', { 'ratelimit-reset': '45' }).retryAfterSeconds).toBe(45);
    expect(read(429, undefined, 'access', { 'retry-after': '7' }).retryAfterSeconds).toBe(7);
    expect(read(429, undefined, 'access').kind).toBe('rate_limited');
  });

  it('shortens long network messages', () => {
    const err = blueskyError(response(400, { error: 'InvalidRequest', message: 'x'.repeat(500) }), 'access', NOW);
    expect(err.message.length).toBeLessThanOrEqual(210);
  });
});

describe('bluesky identity parsing', () => {
  const did = 'did:plc:abcdefghijklmnopqrstuvwx';
  const doc = (service: unknown) => ({ id: did, service });

  it('finds the #atproto_pds endpoint in either id form', () => {
    const entry = { type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://pds.example.com/' };
    expect(pdsEndpoint(doc([{ ...entry, id: '#atproto_pds' }]), did)).toBe('https://pds.example.com');
    expect(pdsEndpoint(doc([{ ...entry, id: `${did}#atproto_pds` }]), did)).toBe('https://pds.example.com');
    expect(pdsEndpoint(doc([{ ...entry, id: '#atproto_labeler' }]), did)).toBeUndefined();
    expect(pdsEndpoint(doc([{ ...entry, id: '#atproto_pds', type: 'Other' }]), did)).toBeUndefined();
  });

  it('refuses endpoints that are not plain http(s) base URLs', () => {
    for (const serviceEndpoint of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://user:pw@pds.example',
      'not a url',
      42,
    ]) {
      expect(
        pdsEndpoint(doc([{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint }]), did),
      ).toBeUndefined();
    }
    expect(pdsEndpoint({ id: did }, did)).toBeUndefined();
  });

  it('accepts did:plc and hostname did:web only', () => {
    expect(isSupportedDid(did)).toBe(true);
    expect(isSupportedDid('did:web:pds.example.com')).toBe(true);
    expect(isSupportedDid('did:web:localhost%3A2583')).toBe(false);
    expect(isSupportedDid('did:web:example.com:user:alice')).toBe(false);
    expect(isSupportedDid('did:key:z6Mk')).toBe(false);
    expect(isSupportedDid('did:plc:short')).toBe(false);
  });

  it('normalises handles', () => {
    expect(normalizeHandle('  @Alice.BSKY.social ')).toBe('alice.bsky.social');
    expect(normalizeHandle('at://alice.test')).toBe('alice.test');
  });
});
