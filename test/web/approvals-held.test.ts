import { describe, expect, it } from 'vitest';
import {
  approvalOutcome,
  heldSince,
  heldText,
  requesterOf,
  sentByMe,
  viaOf,
} from '../../web/src/pages/approvals/held.ts';

const base = {
  platform: 'threads',
  kind: 'post' as const,
  status: 'pending_approval',
  created_at: '2026-11-27T10:00:00Z',
};

describe('held items', () => {
  it("shows the network's own text when the post overrides it, else the common text", () => {
    expect(heldText({ ...base, default_text: 'Hello', post_data: {} })).toBe('Hello');
    expect(heldText({ ...base, default_text: 'Hello', post_data: { threads: { threads_text: 'Hi Threads' } } })).toBe(
      'Hi Threads',
    );
    expect(heldText({ ...base, default_text: 'Hello', post_data: { threads: { threads_text: '  ' } } })).toBe('Hello');
    expect(heldText({ ...base, kind: 'action', default_text: null, post_data: {} })).toBeNull();
  });

  it('names the surface that asked', () => {
    expect(viaOf('agent')).toBe('agent');
    expect(viaOf('gpt')).toBe('gpt');
    expect(viaOf(null)).toBe('other');
  });

  it("reads an approval's answer", () => {
    expect(approvalOutcome({ kind: 'action', success: false, message: 'Plan upgrade required' })).toEqual({
      ok: false,
      message: 'Plan upgrade required',
    });
    expect(approvalOutcome({ success: true, approved: true, message: 'Published' })).toEqual({
      ok: true,
      message: 'Published',
    });
    expect(approvalOutcome({ success: false, approved: false, message: 'Threads refused it' })).toEqual({
      ok: false,
      message: 'Threads refused it',
    });
    expect(
      approvalOutcome({ approved: true, message: 'Done', results: [{ success: false, message: 'NOT_CONNECTED' }] }),
    ).toEqual({ ok: false, message: 'NOT_CONNECTED' });
  });

  it('keeps what a turn held', () => {
    const items = [{ created_at: '2026-11-27T10:00:00Z' }, { created_at: '2026-11-27T09:00:00Z' }];
    expect(heldSince(items, Date.parse('2026-11-27T10:00:03Z'))).toEqual([items[0]]);
  });
});

describe('who asked', () => {
  it('names a member by name and email, or either; a key by its name', () => {
    expect(requesterOf({ kind: 'member', id: 'u1', name: 'Ann Lee', email: 'ann@example.test' })).toEqual({
      kind: 'member',
      label: 'Ann Lee (ann@example.test)',
    });
    expect(requesterOf({ kind: 'member', id: 'u1', name: null, email: 'ann@example.test' })?.label).toBe(
      'ann@example.test',
    );
    expect(requesterOf({ kind: 'key', id: 'abcdef0123', name: 'Zapier', email: null })).toEqual({
      kind: 'key',
      label: 'Zapier',
    });
    expect(requesterOf({ kind: 'key', id: 'abcdef0123', name: null, email: null })?.label).toBe('abcdef01');
    expect(requesterOf(null)).toBeNull();
    expect(viaOf('rest')).toBe('rest');
  });

  it('knows a post the signed-in member sent for approval themselves (they cannot approve it)', () => {
    const by = { kind: 'member' as const, id: 'u1', name: null, email: 'a@x.test' };
    expect(sentByMe({ requested_via: 'rest', requested_by: by }, 'u1')).toBe(true);
    expect(sentByMe({ requested_via: 'rest', requested_by: by }, 'u2')).toBe(false);
    // What the agent held for this member: they approve it.
    expect(sentByMe({ requested_via: 'agent', requested_by: by }, 'u1')).toBe(false);
    expect(sentByMe({ requested_via: 'rest', requested_by: by }, undefined)).toBe(false);
  });
});
