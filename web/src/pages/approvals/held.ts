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

export type Via = 'agent' | 'mcp' | 'gpt' | 'other';

/** Which surface asked (requested_via): the agent, an MCP client or ChatGPT. */
export function viaOf(requestedVia: string | null): Via {
  return requestedVia === 'agent' || requestedVia === 'mcp' || requestedVia === 'gpt' ? requestedVia : 'other';
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
