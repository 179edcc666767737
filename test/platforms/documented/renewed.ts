// After a `new container` row whose cure is a new upload: the retry uploaded the media again and the one post it
// made carries the new upload, not the one the error condemned.
import { expect } from 'vitest';
import type { Platform } from '../../../src/platforms/slugs.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';

export async function expectNewUpload(sb: TestSandbox, platform: Platform, kind: 'image' | 'video'): Promise<void> {
  const s = await sb.state(platform);
  const uploads = s.media.filter((m) => m.kind === kind);
  expect(uploads).toHaveLength(2);
  expect(s.posts).toHaveLength(1);
  expect(JSON.stringify(s.posts[0])).toContain(uploads[1]!.id);
}
