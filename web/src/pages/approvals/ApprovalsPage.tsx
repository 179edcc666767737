// Approvals: what assistants (the agent, MCP clients, ChatGPT) asked to publish or do while the workspace holds
// their actions for review (GET /unified/drafts?status=pending_approval); approve or reject each. Decided actions stay
// listed as approved or failed.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorState, Loading } from '../../ui/States.tsx';
import '../../styles/pages.css';
import { Decisions, HeldItem, heldKey, useDecisions } from './HeldItem.tsx';

type Status = 'pending_approval' | 'approved' | 'failed';
const STATUSES: Status[] = ['pending_approval', 'approved', 'failed'];

export default function ApprovalsPage() {
  const { workspace } = useWorkspace();
  const [status, setStatus] = useState<Status>('pending_approval');
  const statusId = useId();
  const { decisions, add } = useDecisions();
  // Who decided, by name: the members of the workspace (an id stays as it is when the list cannot be read).
  const members = useQuery({
    queryKey: ['members', workspace.id],
    queryFn: () =>
      must(api.GET('/workspaces/{workspace_id}/members', { params: { path: { workspace_id: workspace.id } } })),
    enabled: status !== 'pending_approval',
  });
  const nameOf = (id: string) => {
    const m = members.data?.find((x) => x.user_id === id);
    return m ? (m.full_name ?? m.email) : id;
  };
  const items = useQuery({
    queryKey: [...heldKey, status, workspace.id],
    queryFn: () => must(api.GET('/unified/drafts', { params: { query: { status, limit: 100 } } })),
  });
  return (
    <>
      <PageHeader title={t.approvals.title} />
      <p className="lead">
        {workspace.tool_posts_need_approval ? t.approvals.settingOn : t.approvals.settingOff}{' '}
        <Link to="/settings">{t.approvals.changeSetting}</Link>
      </p>
      <div className="filters">
        <div className="field field-inline">
          <label htmlFor={statusId}>{t.approvals.show}</label>
          <select id={statusId} value={status} onChange={(e) => setStatus(e.target.value as Status)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.approvals.statuses[s]}
              </option>
            ))}
          </select>
        </div>
        {items.data && <p className="filters-count">{t.approvals.count(items.data.total)}</p>}
      </div>
      <Decisions decisions={decisions} />
      {items.isPending ? (
        <Loading />
      ) : items.error ? (
        <ErrorState error={items.error} onRetry={() => void items.refetch()} />
      ) : items.data.data.length === 0 ? (
        <Empty title={status === 'pending_approval' ? t.approvals.empty : t.approvals.emptyDecided}>
          {status === 'pending_approval' && <p>{t.approvals.emptyHint}</p>}
        </Empty>
      ) : (
        <div className="held-list">
          {items.data.data.map((item) => (
            <HeldItem key={item.id} item={item} onDecided={add} nameOf={nameOf} />
          ))}
        </div>
      )}
    </>
  );
}
