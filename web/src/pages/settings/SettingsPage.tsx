// Workspace settings: name, time zone, locale and the approval setting (PATCH /workspaces/{id}); members, their roles
// and invitations; the plan, its credits and this period's usage (GET /billing/usage, /billing/plans).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { fieldError } from '../../api/errors.ts';
import { useMe, useWorkspace, workspacesKey } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Field, TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, QueryView } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import '../../styles/pages.css';
import { CopyButton } from '../keys/CopyButton.tsx';
import { formatBytes } from '../library/format.ts';
import { type Meter, meters, timeZones } from './usage.ts';

type Role = 'owner' | 'member';

function supportedZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

function GeneralForm() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const owner = workspace.role === 'owner';
  const [name, setName] = useState(workspace.name);
  const [zone, setZone] = useState(workspace.time_zone);
  const [locale, setLocale] = useState(workspace.locale ?? '');
  const [approval, setApproval] = useState(workspace.tool_posts_need_approval);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PATCH('/workspaces/{workspace_id}', {
          params: { path: { workspace_id: workspace.id } },
          body: { name, time_zone: zone, locale: locale.trim() || null, tool_posts_need_approval: approval },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: workspacesKey }),
  });
  return (
    <form
      className="card form-card settings-card"
      aria-labelledby="general-heading"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2 id="general-heading">{t.settings.general}</h2>
      {!owner && <p className="page-note">{t.settings.ownersOnly}</p>}
      <fieldset disabled={!owner} className="plain">
        <TextField
          label={t.settings.name}
          value={name}
          required
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(save.error, 'name')}
        />
        <Field label={t.settings.timeZone} hint={t.settings.timeZoneHint} error={fieldError(save.error, 'time_zone')}>
          {(control) => (
            <select {...control} value={zone} onChange={(e) => setZone(e.target.value)}>
              {timeZones(zone, supportedZones()).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label={t.settings.locale}
          hint={t.settings.localeHint}
          value={locale}
          maxLength={64}
          placeholder="en-GB"
          onChange={(e) => setLocale(e.target.value)}
          error={fieldError(save.error, 'locale')}
        />
        <label className="check">
          <input type="checkbox" checked={approval} onChange={(e) => setApproval(e.target.checked)} />
          {t.settings.approval}
        </label>
        <p className="field-hint">{t.settings.approvalHint}</p>
      </fieldset>
      <ErrorText error={save.error} />
      {save.isSuccess && (
        <p className="page-note page-note-ok" role="status">
          {t.settings.saved}
        </p>
      )}
      {owner && (
        <Button type="submit" variant="primary" busy={save.isPending}>
          {t.common.save}
        </Button>
      )}
    </form>
  );
}

function Members() {
  const { workspace } = useWorkspace();
  const me = useMe();
  const queryClient = useQueryClient();
  const owner = workspace.role === 'owner';
  const path = { workspace_id: workspace.id };
  const members = useQuery({
    queryKey: ['members', workspace.id],
    queryFn: () => must(api.GET('/workspaces/{workspace_id}/members', { params: { path } })),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['members', workspace.id] });
  const setRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      must(
        api.PATCH('/workspaces/{workspace_id}/members/{user_id}', {
          params: { path: { ...path, user_id: userId } },
          body: { role },
        }),
      ),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (userId: string) =>
      must(
        api.DELETE('/workspaces/{workspace_id}/members/{user_id}', { params: { path: { ...path, user_id: userId } } }),
      ),
    onSuccess: refresh,
  });
  return (
    <section className="card settings-card" aria-labelledby="members-heading">
      <h2 id="members-heading">{t.settings.members}</h2>
      <ErrorText error={setRole.error ?? remove.error} />
      <QueryView query={members}>
        {(list) => (
          <DataTable
            caption={t.settings.members}
            columns={[t.settings.person, t.settings.role, '']}
            actionsLabel={t.settings.actions}
            stack
          >
            {list.map((m) => {
              const self = m.user_id === me.data?.id;
              return (
                <tr key={m.user_id}>
                  <th scope="row">
                    {m.full_name ?? m.email}
                    {m.full_name && <span className="cell-note">{m.email}</span>}
                    {self && <span className="cell-note">{t.settings.you}</span>}
                  </th>
                  <td>
                    {owner ? (
                      <select
                        aria-label={t.settings.roleOf(m.full_name ?? m.email)}
                        value={m.role}
                        disabled={setRole.isPending}
                        onChange={(e) => setRole.mutate({ userId: m.user_id, role: e.target.value as Role })}
                      >
                        <option value="owner">{t.settings.roles.owner}</option>
                        <option value="member">{t.settings.roles.member}</option>
                      </select>
                    ) : (
                      t.settings.roles[m.role]
                    )}
                  </td>
                  <td className="row-actions">
                    {(owner || self) && (
                      <ConfirmButton
                        label={self ? t.settings.leave : t.settings.remove}
                        confirmLabel={self ? t.settings.confirmLeave : t.settings.confirmRemove}
                        ariaLabel={self ? undefined : t.settings.removeNamed(m.full_name ?? m.email)}
                        busy={remove.isPending && remove.variables === m.user_id}
                        onConfirm={() => remove.mutate(m.user_id)}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </QueryView>
      <p className="field-hint">{t.settings.rolesHint}</p>
    </section>
  );
}

function Invitations() {
  const time = useWorkspaceTime();
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const path = { workspace_id: workspace.id };
  const [email, setEmail] = useState('');
  const [role, setRoleValue] = useState<Role>('member');
  const [link, setLink] = useState<string | null>(null);
  const roleId = useId();
  const invitations = useQuery({
    queryKey: ['invitations', workspace.id],
    queryFn: () => must(api.GET('/workspaces/{workspace_id}/invitations', { params: { path } })),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['invitations', workspace.id] });
  const invite = useMutation({
    mutationFn: () =>
      must(api.POST('/workspaces/{workspace_id}/invitations', { params: { path }, body: { email, role } })),
    onSuccess: (inv) => {
      setLink(`${window.location.origin}/accept-invitation?token=${encodeURIComponent(inv.token)}`);
      setEmail('');
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      must(
        api.DELETE('/workspaces/{workspace_id}/invitations/{invitation_id}', {
          params: { path: { ...path, invitation_id: id } },
        }),
      ),
    onSuccess: refresh,
  });
  if (workspace.role !== 'owner') return null;
  return (
    <section className="card settings-card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">{t.settings.invitations}</h2>
      <form
        className="invite-form"
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <TextField
          label={t.settings.email}
          type="email"
          required
          value={email}
          autoComplete="off"
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError(invite.error, 'email')}
        />
        <div className="field">
          <label htmlFor={roleId}>{t.settings.role}</label>
          <select id={roleId} value={role} onChange={(e) => setRoleValue(e.target.value as Role)}>
            <option value="member">{t.settings.roles.member}</option>
            <option value="owner">{t.settings.roles.owner}</option>
          </select>
        </div>
        <Button type="submit" variant="primary" busy={invite.isPending}>
          {t.settings.invite}
        </Button>
      </form>
      <ErrorText error={invite.error ?? revoke.error} />
      {link && (
        <div className="page-note page-note-ok" role="status">
          <p>{t.settings.invited}</p>
          <div className="secret-row">
            <code className="secret">{link}</code>
            <CopyButton text={link} label={t.settings.copyLink} />
          </div>
        </div>
      )}
      <QueryView query={invitations}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{t.settings.noInvitations}</p>
          ) : (
            <ul className="invitation-list">
              {list.map((inv) => (
                <li key={inv.id}>
                  <span>
                    {inv.email} · {t.settings.roles[inv.role]}
                  </span>
                  <span className={`badge ${inv.status === 'pending' ? 'badge-info' : ''}`}>
                    {t.settings.invitationStatus[inv.status]}
                  </span>
                  <span className="cell-note">{t.settings.expires(time.date(inv.expires_at))}</span>
                  {inv.status === 'pending' && (
                    <Button
                      variant="ghost"
                      aria-label={t.settings.revokeInvitation(inv.email)}
                      busy={revoke.isPending && revoke.variables === inv.id}
                      onClick={() => revoke.mutate(inv.id)}
                    >
                      {t.settings.revoke}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

function MeterRow({ m }: { m: Meter }) {
  const fmt = (n: number) => (m.key === 'storage' ? formatBytes(n) : n.toLocaleString());
  const label = t.settings.meters[m.key];
  return (
    <div className="meter-row">
      <dt>{label}</dt>
      <dd>
        {m.limit === null ? t.settings.usedUnlimited(fmt(m.used)) : t.settings.usedOf(fmt(m.used), fmt(m.limit))}
        {m.fraction !== null && (
          <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={m.fraction} aria-label={label} />
        )}
      </dd>
    </div>
  );
}

function Plan() {
  const time = useWorkspaceTime();
  const { workspace } = useWorkspace();
  const usage = useQuery({ queryKey: ['usage', workspace.id], queryFn: () => must(api.GET('/billing/usage')) });
  const plans = useQuery({ queryKey: ['plans'], queryFn: () => must(api.GET('/billing/plans')) });
  return (
    <section className="card settings-card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">{t.settings.plan}</h2>
      <QueryView query={usage}>
        {(u) => {
          const current = plans.data?.plans.find((p) => p.plan_id === u.plan_id);
          return (
            <>
              <p>
                <strong>{current?.display_name ?? u.plan_id}</strong>
                {current?.tagline ? ` · ${current.tagline}` : ''} · {t.settings.billing(u.billing_status)}
              </p>
              <p className="field-hint">{t.settings.period(time.date(u.period_start), time.date(u.period_end))}</p>
              <dl className="meters">
                {meters(u).map((m) => (
                  <MeterRow key={m.key} m={m} />
                ))}
              </dl>
            </>
          );
        }}
      </QueryView>
      <h3>{t.settings.plans}</h3>
      <QueryView query={plans}>
        {(p) => (
          <DataTable
            caption={t.settings.plans}
            columns={[
              t.settings.planName,
              t.settings.price,
              t.settings.meters.posts,
              t.settings.meters.ai_credits,
              t.settings.meters.connected_accounts,
            ]}
          >
            {p.plans.map((plan) => (
              <tr key={plan.plan_id} className={plan.plan_id === workspace.plan_id ? 'current-plan' : undefined}>
                <th scope="row">
                  {plan.display_name}
                  {plan.plan_id === workspace.plan_id && <span className="cell-note">{t.settings.currentPlan}</span>}
                </th>
                <td>{t.settings.perMonth(plan.price_monthly_usd)}</td>
                <td>{plan.limits.posts_per_month ?? t.settings.unlimited}</td>
                <td>{plan.limits.ai_credits_per_month ?? t.settings.unlimited}</td>
                <td>{plan.limits.max_connected_accounts ?? t.settings.unlimited}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      <p className="field-hint">{t.settings.planChange}</p>
    </section>
  );
}

export default function SettingsPage() {
  const { workspace } = useWorkspace();
  return (
    <>
      <PageHeader title={t.settings.title} />
      <div className="settings-grid">
        {/* Keyed by workspace: switching workspaces starts the form from the other one's values. */}
        <GeneralForm key={workspace.id} />
        <Plan />
        <Members />
        <Invitations />
      </div>
    </>
  );
}
