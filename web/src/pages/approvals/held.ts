// What the approvals list shows of a held item, read from GET /unified/drafts (docs/gpt-actions.md, "Approval of what
// assistants do"). No DOM and no strings of the app here: the components word it.

export interface HeldLike {
  platform: string;
  kind: 'post' | 'action';
  status: string;
  default_text: string | null;
  post_data: Record<string, unknown>;
  created_at: string;
}

/** The text a held post would publish on its network: the network's own override when set, else the common text. */
export function heldText(item: HeldLike): string | null {
  if (item.kind !== 'post') return null;
  const own = item.post_data[item.platform];
  if (own && typeof own === 'object') {
    const text = (own as Record<string, unknown>)[`${item.platform}_text`];
    if (typeof text === 'string' && text.trim()) return text;
  }
  return item.default_text;
}

export type Via = 'agent' | 'mcp' | 'gpt' | 'rest' | 'other';

/** Which surface asked (requested_via): the agent, an MCP client, ChatGPT, or a member's "Send for approval" (rest). */
export function viaOf(requestedVia: string | null): Via {
  return requestedVia === 'agent' || requestedVia === 'mcp' || requestedVia === 'gpt' || requestedVia === 'rest'
    ? requestedVia
    : 'other';
}

export interface RequesterLike {
  kind: 'member' | 'key';
  id: string;
  name: string | null;
  email: string | null;
}

/** Who asked, as people read it: a member's name and email (or either), or an API key's name (or its id). */
export function requesterOf(r: RequesterLike | null | undefined): { kind: 'member' | 'key'; label: string } | null {
  if (!r) return null;
  if (r.kind === 'key') return { kind: 'key', label: r.name?.trim() || r.id.slice(0, 8) };
  const name = r.name?.trim();
  return { kind: 'member', label: name && r.email ? `${name} (${r.email})` : (name ?? r.email ?? r.id.slice(0, 8)) };
}

/** Whether the signed-in member sent this post for approval themselves (they may not approve it: another member does). */
export function sentByMe(item: { requested_via: string | null; requested_by?: RequesterLike | null }, userId?: string) {
  return (
    !!userId && item.requested_via === 'rest' && item.requested_by?.kind === 'member' && item.requested_by.id === userId
  );
}

/**
 * What an approval answered. An action: the tool's own success and message. A post: published or scheduled, or
 * refused by its network (`approved: false`, it stays pending with the network's reason).
 */
export function approvalOutcome(res: Record<string, unknown>): { ok: boolean; message: string } {
  const message = typeof res.message === 'string' ? res.message : '';
  if (res.kind === 'action') return { ok: res.success === true, message };
  if (res.approved === false) return { ok: false, message };
  const failed = Array.isArray(res.results)
    ? (res.results as { success?: boolean; message?: string }[]).find((r) => r.success === false)
    : undefined;
  if (failed) return { ok: false, message: failed.message ?? message };
  return { ok: res.success !== false, message };
}

/** Items created at or after `since` (ms), with a little slack for clocks: what one agent turn held. */
export function heldSince<T extends { created_at: string }>(items: T[], since: number, slackMs = 5_000): T[] {
  return items.filter((i) => Date.parse(i.created_at) >= since - slackMs);
}
