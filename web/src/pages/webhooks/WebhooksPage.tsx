// Webhooks: the workspace's endpoints — create one (its signing secret shown once), edit, enable or disable, delete,
// rotate its secret (the new one shown once), send it a test event — and each endpoint's delivery log with
// redelivery. A plan without webhooks says so (403 plan_required) instead of the page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../../api/client.ts';
import { useCursorPages } from '../../api/cursor.ts';
import { ApiError, fieldError } from '../../api/errors.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { LoadMore } from '../../ui/LoadMore.tsx';
import { TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { OnceSecret } from '../keys/CopyButton.tsx';
import { eventTypeName } from '../notifications/events.ts';
import '../../styles/pages.css';
import '../notifications/events.css';

type Webhook = {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  updated_at: string;
};
type Shown = { secret: string; previousUntil: string | null };
type FormValues = { url: string; description: string; event_types: string[]; enabled: boolean };

const STATUS_BADGE: Record<string, string> = {
  succeeded: 'badge-success',
  failed: 'badge-danger',
  pending: 'badge-info',
  delivering: 'badge-warning',
};

const webhooksKey = (workspaceId: string) => ['webhooks', workspaceId] as const;

function WebhookForm({
  title,
  eventTypes,
  initial,
  submitLabel,
  onSubmit,
  busy,
  error,
}: {
  title: string;
  eventTypes: string[];
  initial: FormValues;
  submitLabel: string;
  onSubmit: (values: FormValues) => void;
  busy: boolean;
  error: unknown;
}) {
  const [values, setValues] = useState(initial);
  const set = (patch: Partial<FormValues>) => setValues((v) => ({ ...v, ...patch }));
  return (
    <form
      className="card form-card"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ ...values, url: values.url.trim(), description: values.description.trim() });
      }}
    >
      <TextField
        label={t.webhooks.url}
        type="url"
        required
        value={values.url}
        placeholder="https://"
        onChange={(e) => set({ url: e.target.value })}
        error={fieldError(error, 'url')}
        hint={t.webhooks.urlHint}
      />
      <TextField
        label={t.webhooks.description}
        value={values.description}
        maxLength={500}
        onChange={(e) => set({ description: e.target.value })}
        error={fieldError(error, 'description')}
      />
      <CheckGroup
        legend={t.webhooks.eventTypes}
        className="check-grid"
        options={eventTypes.map((type) => ({ value: type, label: eventTypeName(type) }))}
        selected={values.event_types}
        onChange={(event_types) => set({ event_types })}
        error={fieldError(error, 'event_types')}
      />
      <p className="hint">{t.webhooks.eventTypesHint}</p>
      <label className="check">
        <input type="checkbox" checked={values.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        {t.webhooks.enabled}
      </label>
      <ErrorText error={error} fields={['url', 'description', 'event_types']} />
      <Button type="submit" variant="primary" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}

function CreateWebhook({ eventTypes, onCreated }: { eventTypes: string[]; onCreated: (shown: Shown) => void }) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: FormValues) => must(api.POST('/webhooks', { body })),
    onSuccess: (hook) => {
      onCreated({ secret: hook.secret, previousUntil: null });
      setFormKey((k) => k + 1);
      void queryClient.invalidateQueries({ queryKey: webhooksKey(workspace.id) });
    },
  });
  return (
    <section aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">{t.webhooks.create}</h2>
      <WebhookForm
        key={formKey}
        title={t.webhooks.create}
        eventTypes={eventTypes}
        initial={{ url: '', description: '', event_types: [], enabled: true }}
        submitLabel={t.webhooks.createButton}
        onSubmit={(v) => create.mutate(v)}
        busy={create.isPending}
        error={create.error}
      />
    </section>
  );
}

function SecretDialog({ shown, onClose }: { shown: Shown; onClose: () => void }) {
  const time = useWorkspaceTime();
  return (
    <Dialog
      open
      title={t.webhooks.secretTitle}
      onClose={onClose}
      actions={<Button onClick={onClose}>{t.webhooks.done}</Button>}
    >
      <OnceSecret
        note={t.webhooks.secretOnce}
        label={t.webhooks.secretLabel}
        copyLabel={t.webhooks.copySecret}
        secret={shown.secret}
      />
      {shown.previousUntil && <p>{t.webhooks.rotatedNote(time.dateTime(shown.previousUntil))}</p>}
    </Dialog>
  );
}

function Deliveries({ hook, onClose }: { hook: Webhook; onClose: () => void }) {
  const { workspace } = useWorkspace();
  const time = useWorkspaceTime();
  const [notice, setNotice] = useState('');
  const key = ['webhook-deliveries', workspace.id, hook.id];
  const log = useCursorPages(key, (cursor) =>
    must(api.GET('/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: cursor ? { cursor } : {} } })),
  );
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: (id: string) => must(api.POST('/webhooks/deliveries/{id}/redeliver', { params: { path: { id } } })),
    onSuccess: () => {
      setNotice(t.webhooks.redelivered);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <Dialog open title={t.webhooks.deliveriesTitle(hook.url)} onClose={onClose}>
      <p role="status" className="muted">
        {notice}
      </p>
      <ErrorText error={redeliver.error} />
      <QueryView query={log}>
        {(data) => {
          const rows = data.pages.flatMap((p) => p.deliveries);
          if (rows.length === 0) return <Empty title={t.webhooks.deliveriesEmpty} />;
          return (
            <>
              <DataTable
                caption={t.webhooks.deliveriesTitle(hook.url)}
                columns={[
                  t.webhooks.event,
                  t.webhooks.created,
                  t.webhooks.status,
                  t.webhooks.attempts,
                  t.webhooks.response,
                  t.webhooks.duration,
                  '',
                ]}
                actionsLabel={t.webhooks.actions}
              >
                {rows.map((d) => (
                  <tr key={d.id} data-status={d.status}>
                    <th scope="row">{eventTypeName(d.event_type)}</th>
                    <td>{time.dateTime(d.created_at)}</td>
                    <td>
                      <span className={`badge ${STATUS_BADGE[d.status] ?? ''}`}>
                        {t.webhooks.statuses[d.status] ?? d.status}
                      </span>
                      {d.error && <span className="webhook-reason">{d.error}</span>}
                    </td>
                    <td>{d.attempts}</td>
                    <td>{d.response_status ?? t.webhooks.noResponse}</td>
                    <td>{d.duration_ms === null ? '—' : t.webhooks.ms(d.duration_ms)}</td>
                    <td className="row-actions">
                      {(d.status === 'succeeded' || d.status === 'failed') && (
                        <Button
                          aria-label={t.webhooks.redeliverOf(eventTypeName(d.event_type))}
                          busy={redeliver.isPending && redeliver.variables === d.id}
                          onClick={() => redeliver.mutate(d.id)}
                        >
                          {t.webhooks.redeliver}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </DataTable>
              <LoadMore pages={log} />
            </>
          );
        }}
      </QueryView>
    </Dialog>
  );
}

function WebhookList({
  hooks,
  eventTypes,
  onSecret,
}: {
  hooks: Webhook[];
  eventTypes: string[];
  onSecret: (shown: Shown) => void;
}) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Webhook>();
  const [viewing, setViewing] = useState<Webhook>();
  const [notice, setNotice] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKey(workspace.id) });
  const patch = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Partial<FormValues> }) =>
      must(api.PATCH('/webhooks/{id}', { params: { path: { id } }, body })),
    onSuccess: () => {
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => void refresh(),
  });
  const rotate = useMutation({
    mutationFn: (id: string) => must(api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
    onSuccess: (hook) => {
      onSecret({ secret: hook.secret, previousUntil: hook.previous_secret_expires_at });
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: (id: string) => must(api.POST('/webhooks/{id}/test', { params: { path: { id } } })),
    onSuccess: (delivery) => {
      setNotice(t.webhooks.tested);
      void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', workspace.id, delivery.webhook_id] });
    },
  });
  if (hooks.length === 0) return <Empty title={t.webhooks.empty} />;
  return (
    <>
      <p role="status" className="muted">
        {notice}
      </p>
      <ErrorText error={(editing ? null : patch.error) ?? remove.error ?? rotate.error ?? test.error} />
      <DataTable
        caption={t.webhooks.listTitle}
        columns={[t.webhooks.url, t.webhooks.eventTypes, t.webhooks.status, '']}
        actionsLabel={t.webhooks.actions}
      >
        {hooks.map((h) => (
          <tr key={h.id}>
            <th scope="row" className="webhook-url">
              {h.url}
              {h.description && <span className="muted webhook-description"> — {h.description}</span>}
            </th>
            <td>{h.event_types.length ? h.event_types.map(eventTypeName).join(', ') : t.webhooks.allEvents}</td>
            <td>
              <span className={`badge ${h.enabled ? 'badge-success' : 'badge-warning'}`}>
                {h.enabled ? t.webhooks.on : t.webhooks.off}
              </span>
              {h.disabled_reason && (
                <span className="webhook-reason">{t.webhooks.disabledBecause(h.disabled_reason)}</span>
              )}
            </td>
            <td className="row-actions">
              <div className="row">
                <Button aria-label={t.webhooks.deliveriesOf(h.url)} onClick={() => setViewing(h)}>
                  {t.webhooks.deliveries}
                </Button>
                <Button
                  aria-label={t.webhooks.testOf(h.url)}
                  busy={test.isPending && test.variables === h.id}
                  onClick={() => test.mutate(h.id)}
                >
                  {t.webhooks.test}
                </Button>
                <Button
                  aria-label={t.webhooks.editOf(h.url)}
                  onClick={() => {
                    patch.reset();
                    setEditing(h);
                  }}
                >
                  {t.webhooks.edit}
                </Button>
                <Button
                  aria-label={h.enabled ? t.webhooks.disableOf(h.url) : t.webhooks.enableOf(h.url)}
                  busy={patch.isPending && patch.variables?.id === h.id && !editing}
                  onClick={() => patch.mutate({ id: h.id, body: { enabled: !h.enabled } })}
                >
                  {h.enabled ? t.webhooks.disable : t.webhooks.enable}
                </Button>
                <ConfirmButton
                  // A new record after a rotation: the button asks again next time.
                  key={h.updated_at}
                  label={t.webhooks.rotate}
                  confirmLabel={t.webhooks.confirmRotate}
                  ariaLabel={t.webhooks.rotateOf(h.url)}
                  busy={rotate.isPending && rotate.variables === h.id}
                  onConfirm={() => rotate.mutate(h.id)}
                />
                <ConfirmButton
                  label={t.webhooks.delete}
                  confirmLabel={t.webhooks.confirmDelete}
                  ariaLabel={t.webhooks.deleteOf(h.url)}
                  busy={remove.isPending && remove.variables === h.id}
                  onConfirm={() => remove.mutate(h.id)}
                />
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      {editing && (
        <Dialog
          open
          title={t.webhooks.edit}
          onClose={() => setEditing(undefined)}
          actions={<Button onClick={() => setEditing(undefined)}>{t.common.cancel}</Button>}
        >
          <WebhookForm
            title={t.webhooks.edit}
            eventTypes={eventTypes}
            initial={{
              url: editing.url,
              description: editing.description,
              event_types: editing.event_types,
              enabled: editing.enabled,
            }}
            submitLabel={t.webhooks.saveButton}
            onSubmit={(body) => patch.mutate({ id: editing.id, body })}
            busy={patch.isPending}
            error={patch.error}
          />
        </Dialog>
      )}
      {viewing && <Deliveries hook={viewing} onClose={() => setViewing(undefined)} />}
    </>
  );
}

export default function WebhooksPage() {
  const { workspace } = useWorkspace();
  const [shown, setShown] = useState<Shown | null>(null);
  const list = useQuery({ queryKey: webhooksKey(workspace.id), queryFn: () => must(api.GET('/webhooks')) });
  return (
    <>
      <PageHeader title={t.nav.webhooks} />
      <p className="lead">{t.webhooks.intro}</p>
      {list.error instanceof ApiError && list.error.code === 'plan_required' ? (
        <p className="page-note" role="note">
          {list.error.message}
        </p>
      ) : (
        <QueryView query={list}>
          {(data) => (
            <div className="keys-layout">
              <CreateWebhook eventTypes={data.event_types} onCreated={setShown} />
              <section aria-labelledby="webhooks-list-heading">
                <h2 id="webhooks-list-heading">{t.webhooks.listTitle}</h2>
                <WebhookList hooks={data.webhooks} eventTypes={data.event_types} onSecret={setShown} />
              </section>
            </div>
          )}
        </QueryView>
      )}
      {shown && <SecretDialog shown={shown} onClose={() => setShown(null)} />}
    </>
  );
}
