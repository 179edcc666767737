// What a network (or whatever answers in its place) writes in an error reaches Herald's answers only as a short,
// clean reason: every network's error reader, fed the same hostile body, and the text rules themselves.
import { describe, expect, it } from 'vitest';
import { blueskyError } from '../../src/platforms/bluesky/errors.ts';
import { facebookError } from '../../src/platforms/facebook/errors.ts';
import { instagramError } from '../../src/platforms/instagram/errors.ts';
import { linkedinError } from '../../src/platforms/linkedin/errors.ts';
import { readApi as pinterestApi } from '../../src/platforms/pinterest/errors.ts';
import { threadsError } from '../../src/platforms/threads/errors.ts';
import { readApi as tiktokApi, readOAuth as tiktokOAuth } from '../../src/platforms/tiktok/errors.ts';
import { readApi as youtubeApi } from '../../src/platforms/youtube/errors.ts';
import { cleanMessage, networkText } from '../../src/platforms/error-text.ts';
import type { HttpResponse } from '../../src/platforms/http.ts';
import { PlatformError } from '../../src/platforms/types.ts';

const HOSTILE = [
  '<h1>Bad gateway</h1>\r\n<p>upstream db-7.corp.internal (10.20.30.40:5432) refused;',
  ' retry via http://admin.intranet:8080/reset?key=1 or [fd00::5]:443\u0007\u202e',
  `<script>alert(document.cookie)</script>${'A'.repeat(5000)}</p>`,
].join('\n');

/** Wire-safe: one line, bounded, no markup, and nothing naming a host or an address. */
function expectClean(message: string): void {
  expect(message.length).toBeLessThanOrEqual(300);
  expect(message).not.toMatch(/[\u0000-\u001f\u007f\u202e<>]/);
  expect(message).not.toMatch(/db-7|corp\.internal|intranet|10\.20\.30\.40|fd00|script|AAAAAAAAAA/);
}

function response(status: number, data: unknown): HttpResponse {
  return {
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    url: 'https://api.example/x',
    text: JSON.stringify(data),
    data,
  };
}

function thrown(fn: () => unknown): PlatformError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PlatformError);
    return err as PlatformError;
  }
  throw new Error('expected a PlatformError');
}

const NOW = new Date('2026-11-21T12:00:00Z');
const graph = { error: { message: HOSTILE, type: 'OAuthException', code: 100 } };

describe('network error text on the wire', () => {
  it.each<[string, () => PlatformError]>([
    ['bluesky', () => blueskyError(response(400, { error: 'InvalidRequest', message: HOSTILE }), 'access', NOW)],
    ['linkedin (API)', () => linkedinError(response(400, { code: 'BAD', message: HOSTILE }))],
    [
      'linkedin (OAuth)',
      () => linkedinError(response(400, { error: 'invalid_request', error_description: HOSTILE }), 'token'),
    ],
    ['facebook', () => facebookError(response(400, graph))],
    ['instagram (Graph)', () => instagramError(response(400, graph))],
    [
      'instagram (code exchange)',
      () => instagramError(response(400, { error_type: 'OAuthException', code: 400, error_message: HOSTILE }), 'token'),
    ],
    ['threads', () => threadsError(response(400, graph))],
    [
      'tiktok (API)',
      () =>
        thrown(() => tiktokApi(response(400, { error: { code: 'invalid_params', message: HOSTILE } }), 'post init')),
    ],
    [
      'tiktok (OAuth)',
      () =>
        thrown(() =>
          tiktokOAuth(response(400, { error: 'invalid_request', error_description: HOSTILE }), 'code exchange', true),
        ),
    ],
    [
      'youtube',
      () =>
        thrown(() =>
          youtubeApi(
            response(400, { error: { message: HOSTILE, errors: [{ reason: 'invalidTitle', message: HOSTILE }] } }),
            'upload',
            NOW,
          ),
        ),
    ],
    ['pinterest', () => thrown(() => pinterestApi(response(400, { code: 1, message: HOSTILE }), 'create pin'))],
  ])('%s: a hostile error body becomes a short clean reason', (_network, read) => {
    expectClean(read().message);
  });

  it('bounds and cleans any PlatformError message, whatever an adapter put in it', () => {
    const err = new PlatformError('linkedin', 'transient', `linkedin failed: ${HOSTILE}`);
    expect(err.message.length).toBeLessThanOrEqual(300);
    expect(err.message).not.toMatch(/[\r\n<>]|10\.20\.30\.40|fd00|admin\.intranet:8080/);
  });
});

describe('text rules', () => {
  it('keeps an ordinary message as it is', () => {
    expect(cleanMessage('Bluesky is unavailable (HTTP 503)')).toBe('Bluesky is unavailable (HTTP 503)');
    expect(networkText('Record text too long: 310 graphemes, limit 300 (retry at 12:30:45)')).toBe(
      'Record text too long: 310 graphemes, limit 300 (retry at 12:30:45)',
    );
    expect(cleanMessage('Rust says Foo::Bar')).toBe('Rust says Foo::Bar');
  });

  it('leaves out addresses in every notation, URLs, markup and control characters', () => {
    expect(cleanMessage('dial 127.0.0.1:80, [::1]:443, ::ffff:127.0.0.1 and fe80::1.')).toBe(
      'dial [address], [address], [address] and [address].',
    );
    expect(cleanMessage('see https://internal.example/x?y=1 now')).toBe('see [url] now');
    expect(cleanMessage('a\u0000b\r\nc\u2028d <b>bold</b>')).toBe('a b c d bold');
  });

  it('leaves out host names in network text, and drops an HTML page entirely', () => {
    expect(networkText('upstream db-7.corp.internal timed out; try localhost')).toBe(
      'upstream [host] timed out; try [host]',
    );
    expect(networkText('<!DOCTYPE html><html><body>502 Bad Gateway nginx</body></html>')).toBe('');
    expect(networkText(42)).toBe('');
  });

  it('cuts long text to the bound', () => {
    const long = networkText('word '.repeat(200));
    expect([...long].length).toBeLessThanOrEqual(160);
    expect(long.endsWith('…')).toBe(true);
  });
});
