import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chunksToSend,
  fingerprint,
  forgetSession,
  saveSession,
  savedSession,
} from '../../web/src/compose/upload-sessions.ts';

// A Map-backed localStorage: the suites run in Node, the app in a browser.
const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const file = { name: 'clip.mp4', size: 20_000_000, type: 'video/mp4', lastModified: 1_700_000_000_000 };

describe('chunked upload sessions kept across reloads', () => {
  it('are kept per workspace and file until forgotten', () => {
    const fp = fingerprint(file);
    saveSession('ws1', fp, { upload_id: 'up1', chunk_size: 1_048_576, total_chunks: 20 });
    expect(savedSession('ws1', fp)).toMatchObject({ upload_id: 'up1', total_chunks: 20 });
    expect(savedSession('ws2', fp)).toBeNull();
    expect(savedSession('ws1', fingerprint({ ...file, lastModified: 1 }))).toBeNull();
    forgetSession('ws1', fp);
    expect(savedSession('ws1', fp)).toBeNull();
    expect(store.size).toBe(0);
  });

  it('forget expired sessions', () => {
    const fp = fingerprint(file);
    saveSession('ws1', fp, { upload_id: 'up1', chunk_size: 10, total_chunks: 2, expires_at: '2026-11-27T10:00:00Z' });
    expect(savedSession('ws1', fp, Date.parse('2026-11-27T09:00:00Z'))).not.toBeNull();
    expect(savedSession('ws1', fp, Date.parse('2026-11-27T11:00:00Z'))).toBeNull();
  });

  it('send only the chunks the server lacks, or start afresh when it cannot resume', () => {
    expect(chunksToSend({ status: 'uploading', total_chunks: 5, missing_chunks: [3, 5] }, 5)).toEqual([3, 5]);
    expect(chunksToSend({ status: 'pending', total_chunks: 2 }, 2)).toEqual([1, 2]);
    expect(chunksToSend({ status: 'ready', total_chunks: 2 }, 2)).toEqual([]);
    expect(chunksToSend({ status: 'expired', total_chunks: 2 }, 2)).toBeNull();
    expect(chunksToSend({ status: 'complete', total_chunks: 2 }, 2)).toBeNull();
    expect(chunksToSend({ status: 'uploading', total_chunks: 3, missing_chunks: [1] }, 2)).toBeNull();
  });
});
