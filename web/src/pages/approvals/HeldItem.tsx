// One item held for approval (a tool's post, or another tool call such as a reply or a disconnect): what it is, who
// asked for it (the surface, and the member or API key), and approve / reject with a reason (POST
// /unified/drafts/{id}/approve, POST /unified/drafts/{id}/reject).
// Used by the approvals page and in line in the agent chat.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { networkName } from '../../api/networks.ts';
import type { paths } from '../../api/schema.d.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { useMe } from '../../app/session.tsx';
import { ErrorText } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { approvalOutcome, heldText, requesterOf, sentByMe, viaOf } from './held.ts';

export type HeldDraft =
  paths['/unified/drafts']['get']['responses'][200]['content']['application/json']['data'][number];

export const heldKey = ['approvals'] as const;

export interface Decision {
  id: string;
  what: string;
  ok: boolean;
  message: string;
}

/**
 * What was decided on this page: an approved or rejected item leaves the pending list at once, so its outcome (the
 * network's answer, or why it failed) is kept here to be read.
 */
export function useDecisions() {
  const [decisions, setDecisions] = useState<Decision[]>([]);
  return { decisions, add: (d: Decision) => setDecisions((all) => [d, ...all.filter((x) => x.id !== d.id)]) };
}

export function Decisions({ decisions }: { decisions: Decision[] }) {
  return (
    // The live region wraps the list: a role on the <ul> itself would stop it being a list for assistive technology.
    <div role="status" aria-label={t.approvals.decisions}>
      <ul className="decisions">
        {decisions.map((d) => (
          <li key={d.id} className={d.ok ? 'page-note page-note-ok' : 'page-note page-note-error'}>
            <strong>{d.what}</strong> {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function titleOf(item: HeldDraft): string {
  return item.kind === 'action' ? (item.action?.summary ?? item.action?.tool ?? '') : t.approvals.post(item.post_type);
}

export function HeldItem({
  item,
  onDecided,
  nameOf = (id) => id,
}: {
  item: HeldDraft;
  onDecided: (d: Decision) => void;
  /** A member's name by user id (who decided). */
  nameOf?: (userId: string) => string;
}) {
  const time = useWorkspaceTime();
  const queryClient = useQueryClient();
  const headingId = useId();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: heldKey });
  const text = heldText(item);
  const what = `${networkName(item.platform)} · ${titleOf(item)}${text ? ` “${text.length > 60 ? `${text.slice(0, 60)}…` : text}”` : ''}:`;
  const approve = useMutation({
    mutationFn: () => must(api.POST('/unified/drafts/{id}/approve', { params: { path: { id: item.id } } })),
    onSuccess: (res) => {
      onDecided({ id: item.id, what, ...approvalOutcome(res as Record<string, unknown>) });
      refresh();
    },
  });
  const me = useMe();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const reject = useMutation({
    mutationFn: () =>
      must(
        api.POST('/unified/drafts/{id}/reject', {
          params: { path: { id: item.id } },
          body: { reason: reason.trim() || null },
        }),
      ),
    onSuccess: () => {
      onDecided({ id: item.id, what, ok: true, message: t.approvals.rejected });
      refresh();
    },
  });
  const pending = item.status === 'pending_approval';
  const who = requesterOf(item.requested_by);
  const whoText = who ? (who.kind === 'key' ? t.approvals.apiKey(who.label) : who.label) : null;
  const via = viaOf(item.requested_via);
  const at = time.dateTime(item.created_at);
  const mine = sentByMe(item, me.data?.id);
  const confirmReject = (e: FormEvent) => {
    e.preventDefault();
    reject.mutate();
  };
  return (
    <article className="held card" aria-labelledby={headingId}>
      <header className="held-head">
        <span className={`network-chip network-${item.platform}`}>{networkName(item.platform)}</span>
        <h3 id={headingId}>{titleOf(item)}</h3>
        <span className={`badge status-${item.status}`}>
          {t.approvals.statuses[item.status as 'pending_approval'] ?? item.status}
        </span>
      </header>
      <p className="held-meta">
        {via === 'rest' && whoText
          ? t.approvals.sentBy(whoText, at)
          : whoText
            ? t.approvals.requestedFor(t.approvals.via[via], whoText, at)
            : t.approvals.requested(t.approvals.via[via], at)}
        {item.action?.decided_by && ` · ${t.approvals.decidedBy(nameOf(item.action.decided_by))}`}
      </p>
      {text && <p className="held-text">{text}</p>}
      {item.kind === 'action' && item.action && (
        <details>
          <summary>{t.approvals.arguments(item.action.tool)}</summary>
          <pre className="held-args">{JSON.stringify(item.action.arguments, null, 2)}</pre>
        </details>
      )}
      {item.action?.result && !item.action.result.success && (
        <p className="field-error">{String((item.action.result as { message?: unknown }).message ?? '')}</p>
      )}
      <ErrorText error={approve.error ?? reject.error} />
      {pending && mine && <p className="held-meta">{t.approvals.yours}</p>}
      {pending && !rejecting && (
        <div className="held-actions">
          {!mine && (
            <Button
              variant="primary"
              busy={approve.isPending}
              disabled={reject.isPending}
              onClick={() => approve.mutate()}
            >
              {t.approvals.approve}
            </Button>
          )}
          <Button variant="danger" disabled={approve.isPending} onClick={() => setRejecting(true)}>
            {t.approvals.reject}
          </Button>
        </div>
      )}
      {pending && rejecting && (
        <form className="held-reject" onSubmit={confirmReject}>
          <label htmlFor={reasonId}>{t.approvals.reason}</label>
          <textarea id={reasonId} value={reason} maxLength={500} rows={2} onChange={(e) => setReason(e.target.value)} />
          <div className="held-actions">
            <Button type="submit" variant="danger" busy={reject.isPending}>
              {t.approvals.confirmReject}
            </Button>
            <Button disabled={reject.isPending} onClick={() => setRejecting(false)}>
              {t.approvals.cancel}
            </Button>
          </div>
        </form>
      )}
    </article>
  );
}
