import { describe, expect, it } from 'vitest';
import { eventLink } from '../../web/src/pages/notifications/events.ts';

describe('eventLink', () => {
  it('links a post event to its post, by ledger id or else by queue entry', () => {
    expect(eventLink({ type: 'post.published', post_id: 'p1', platform: null, data: {} })).toEqual({
      kind: 'post',
      href: '/posts?post=p1',
    });
    expect(
      eventLink({ type: 'post.scheduled', post_id: null, platform: 'linkedin', data: { scheduled_post_id: 'q1' } }),
    ).toEqual({ kind: 'post', href: '/posts?post=q1' });
  });

  it('links an account event to its connection', () => {
    expect(eventLink({ type: 'account.connected', post_id: null, platform: 'threads', data: {} })).toEqual({
      kind: 'connection',
      href: '/connections?platform=threads',
    });
  });

  it('names nothing for events without a post or network', () => {
    expect(eventLink({ type: 'credits.low', post_id: null, platform: null, data: {} })).toBeNull();
    expect(eventLink({ type: 'post.approved', post_id: null, platform: 'linkedin', data: {} })).toBeNull();
  });
});
