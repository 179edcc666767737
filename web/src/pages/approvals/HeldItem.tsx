// One item held for approval (a tool's post, or another tool call such as a reply or a disconnect): what it is, who
// asked for it, and the approve / reject buttons (POST /unified/drafts/{id}/approve, DELETE /unified/drafts/{id}).
// Used by the approvals page and in line in the agent chat.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { networkName } from '../../api/networks.ts';
import type { paths } from '../../api/schema.d.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ErrorText } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { approvalOutcome, heldText, viaOf } from './held.ts';

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
    <ul className="decisions" role="status" aria-label={t.approvals.decisions}>
      {decisions.map((d) => (
        <li key={d.id} className={d.ok ? 'page-note page-note-ok' : 'page-note page-note-error'}>
          <strong>{d.what}</strong> {d.message}
        </li>
      ))}
    </ul>
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
  const reject = useMutation({
    mutationFn: () => must(api.DELETE('/unified/drafts/{id}', { params: { path: { id: item.id } } })),
    onSuccess: () => {
      onDecided({ id: item.id, what, ok: true, message: t.approvals.rejected });
      refresh();
    },
  });
  const pending = item.status === 'pending_approval';
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
        {t.approvals.requested(t.approvals.via[viaOf(item.requested_via)], time.dateTime(item.created_at))}
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
      {pending && (
        <div className="held-actions">
          <Button
            variant="primary"
            busy={approve.isPending}
            disabled={reject.isPending}
            onClick={() => approve.mutate()}
          >
            {t.approvals.approve}
          </Button>
          <Button variant="danger" busy={reject.isPending} disabled={approve.isPending} onClick={() => reject.mutate()}>
            {t.approvals.reject}
          </Button>
        </div>
      )}
    </article>
  );
}
