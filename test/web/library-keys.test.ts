import { describe, expect, it } from 'vitest';
import { describeScope, expiryFrom, scopeFrom, serverUrls } from '../../web/src/pages/keys/scope.ts';
import { formatBytes, formatDimensions, formatDuration, withinDays } from '../../web/src/pages/library/format.ts';

describe('media library numbers', () => {
  it('formats sizes, durations and dimensions', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatDuration(75.4)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDimensions(1080, 1350)).toBe('1080 × 1350');
    expect(formatDimensions(null, null)).toBeNull();
  });

  it('filters by upload date', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const items = [{ uploaded_at: '2026-11-26T12:00:00Z' }, { uploaded_at: '2026-10-01T12:00:00Z' }];
    expect(withinDays(items, 'all', now)).toHaveLength(2);
    expect(withinDays(items, '7', now)).toEqual([items[0]]);
  });
});

describe('API key scope', () => {
  it('writes and reads scope strings', () => {
    expect(scopeFrom(true, ['bluesky'])).toBe('full');
    expect(scopeFrom(false, [])).toBe('full');
    expect(scopeFrom(false, ['threads', 'bluesky'])).toBe('bluesky,threads');
    expect(describeScope('full')).toEqual({ all: true, networks: [], special: null });
    expect(describeScope('bluesky, threads')).toEqual({ all: false, networks: ['bluesky', 'threads'], special: null });
    expect(describeScope('linkedin_posts')).toEqual({ all: false, networks: ['linkedin'], special: 'linkedin_posts' });
  });

  it('computes expiry and connection URLs', () => {
    expect(expiryFrom(0, 0)).toBeNull();
    expect(expiryFrom(30, Date.parse('2026-11-01T00:00:00Z'))).toBe('2026-12-01T00:00:00.000Z');
    expect(serverUrls('https://h.example/')).toMatchObject({
      mcp: 'https://h.example/mcp',
      webMcp: 'https://h.example/web/mcp',
      actions: 'https://h.example/openapi/chatgpt-actions.json',
    });
  });
});
