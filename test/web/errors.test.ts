// The app shows the API's own words: a string detail as is, an invalid-input list beside each field (by its body
// path), an {error, message} detail by its message, anything else by its HTTP status.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/src/api/errors.ts';
import { outcomesOf } from '../../web/src/pages/compose/results.ts';

describe('ApiError.fromBody', () => {
  it('keeps a string detail', () => {
    const e = ApiError.fromBody({ detail: 'CSRF token missing or invalid' }, 403);
    expect(e).toMatchObject({ message: 'CSRF token missing or invalid', status: 403, fields: {} });
  });
  it('gives each invalid field its message, keyed by its path in the body', () => {
    const e = ApiError.fromBody(
      {
        detail: [
          { loc: ['body', 'threads', 'threads_text'], msg: 'Max 500', type: 'too_long' },
          { loc: ['body', 'platforms', 0], msg: 'Unknown platform', type: 'enum' },
          { loc: ['query', 'limit'], msg: 'Too big', type: 'too_big' },
        ],
      },
      422,
    );
    expect(e.fields).toEqual({
      'threads.threads_text': 'Max 500',
      'platforms.0': 'Unknown platform',
      limit: 'Too big',
    });
    expect(e.message).toBe('threads.threads_text: Max 500; platforms.0: Unknown platform; limit: Too big');
  });
  it('reads an {error, message} detail and keeps the code', () => {
    const e = ApiError.fromBody({ detail: { error: 'plan_required', message: 'Upgrade to schedule.' } }, 403);
    expect(e).toMatchObject({ message: 'Upgrade to schedule.', code: 'plan_required' });
  });
  it('falls back to the status for a body without detail', () => {
    expect(ApiError.fromBody(undefined, 502).message).toBe('The request failed (HTTP 502).');
  });
});

describe('outcomesOf', () => {
  it('lists one network, several, drafts and a schedule alike', () => {
    expect(
      outcomesOf(
        { success: true, message: 'ok', post: { platform: 'threads', post_id: '1', permalink: 'https://t/1' } },
        'publish',
      ),
    ).toEqual([{ platform: 'threads', success: true, message: 'ok', permalink: 'https://t/1', kind: 'published' }]);
    expect(
      outcomesOf(
        {
          results: [
            { platform: 'linkedin', success: true, message: 'done', post: { post_id: 'a' } },
            { platform: 'bluesky', success: false, message: 'too long', error: 'VALIDATION' },
          ],
        },
        'publish',
      ).map((o) => [o.platform, o.kind]),
    ).toEqual([
      ['linkedin', 'published'],
      ['bluesky', 'failed'],
    ]);
    expect(
      outcomesOf({ success: true, message: 'Saved', drafts: [{ platform: 'threads' }] }, 'draft')[0],
    ).toMatchObject({
      kind: 'draft',
      message: 'Saved',
    });
    expect(
      outcomesOf({ success: true, message: 'Queued', scheduled: [{ platform: 'threads' }] }, 'schedule')[0],
    ).toMatchObject({ kind: 'scheduled', platform: 'threads' });
  });
});
