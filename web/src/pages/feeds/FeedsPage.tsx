// Feeds: the RSS, Atom and JSON Feed feeds this workspace follows — add one (its networks, drafts, scheduled posts or
// a posting queue's next free slots, the template or AI copy, backfill), edit, pause or resume, poll now, delete — with each feed's last success and
// last error. A plan without scheduling says so (403 plan_required) instead of the page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../../api/client.ts';
import { ApiError, fieldError } from '../../api/errors.ts';
import { networkName } from '../../api/networks.ts';
import { usePlatforms } from '../../api/platforms.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field, TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import '../../styles/pages.css';

type Feed = {
  id: string;
  url: string;
  networks: string[];
  mode: 'draft' | 'schedule' | 'queue';
  queue: string | null;
  schedule: { delay_minutes: number; from: 'found' | 'published' };
  template: string;
  ai: boolean;
  backfill: boolean;
  paused: boolean;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  failures: number;
};
type FormValues = {
  url: string;
  networks: string[];
  mode: 'draft' | 'schedule' | 'queue';
  queue: string;
  delay_minutes: number;
  template: string;
  ai: boolean;
  backfill: boolean;
};

const feedsKey = (workspaceId: string) => ['feeds', workspaceId] as const;
const FIELDS = ['url', 'networks', 'mode', 'queue', 'schedule', 'template'];
const DEFAULT_QUEUE = 'default';

/** The mode's name as the list shows it (a queue mode names its queue). */
function modeLabel(f: Pick<Feed, 'mode' | 'queue'>): string {
  if (f.mode === 'queue') return t.feeds.modeQueueOf(f.queue ?? DEFAULT_QUEUE);
  return f.mode === 'schedule' ? t.feeds.modeSchedule : t.feeds.modeDraft;
}

function toBody(v: FormValues) {
  return {
    url: v.url.trim(),
    networks: v.networks,
    mode: v.mode,
    // The queue is kept only in queue mode; the default queue is sent as null (the feed follows the default queue).
    queue: v.mode === 'queue' && v.queue !== DEFAULT_QUEUE ? v.queue : null,
    schedule: { delay_minutes: v.delay_minutes, from: 'found' as const },
    template: v.template,
    ai: v.ai,
    backfill: v.backfill,
  };
}

function FeedForm({
  title,
  initial,
  submitLabel,
  onSubmit,
  busy,
  error,
}: {
  title: string;
  initial: FormValues;
  submitLabel: string;
  onSubmit: (values: FormValues) => void;
  busy: boolean;
  error: unknown;
}) {
  const [values, setValues] = useState(initial);
  const set = (patch: Partial<FormValues>) => setValues((v) => ({ ...v, ...patch }));
  const platforms = usePlatforms();
  const { workspace } = useWorkspace();
  // The workspace's posting queues (the Queues page's list; the same query key, so a change there refreshes this).
  const queues = useQuery({
    queryKey: ['queues', workspace.id],
    queryFn: () => must(api.GET('/unified/queues')),
    enabled: values.mode === 'queue',
  });
  const queueNames = (queues.data?.data?.queues ?? []).map((q) => q.name);
  // A feed's queue deleted since it was saved is still shown, so the form does not silently change it.
  if (values.mode === 'queue' && queues.data && !queueNames.includes(values.queue)) queueNames.push(values.queue);
  return (
    <form
      className="card form-card"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(values);
      }}
    >
      <TextField
        label={t.feeds.url}
        type="url"
        required
        value={values.url}
        placeholder="https://"
        onChange={(e) => set({ url: e.target.value })}
        error={fieldError(error, 'url')}
        hint={t.feeds.urlHint}
      />
      <CheckGroup
        legend={t.feeds.networks}
        className="check-grid"
        options={(platforms.data?.platforms ?? []).map((p) => ({ value: p.slug, label: p.display_name }))}
        selected={values.networks}
        onChange={(networks) => set({ networks })}
        error={fieldError(error, 'networks')}
      />
      <Field label={t.feeds.mode} error={fieldError(error, 'mode')}>
        {(control) => (
          <select
            {...control}
            value={values.mode}
            onChange={(e) => set({ mode: e.target.value as FormValues['mode'] })}
          >
            <option value="draft">{t.feeds.modeDraft}</option>
            <option value="schedule">{t.feeds.modeSchedule}</option>
            <option value="queue">{t.feeds.modeQueue}</option>
          </select>
        )}
      </Field>
      {values.mode === 'queue' && (
        <Field label={t.feeds.queue} error={fieldError(error, 'queue')} hint={t.feeds.queueHint}>
          {(control) => (
            <select {...control} value={values.queue} onChange={(e) => set({ queue: e.target.value })}>
              {(queueNames.length ? queueNames : [values.queue]).map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {values.mode === 'schedule' && (
        <TextField
          label={t.feeds.delay}
          type="number"
          min={0}
          max={43200}
          value={values.delay_minutes}
          onChange={(e) => set({ delay_minutes: Number(e.target.value) })}
          error={fieldError(error, 'schedule')}
        />
      )}
      <Field label={t.feeds.template} error={fieldError(error, 'template')} hint={t.feeds.templateHint}>
        {(control) => (
          <textarea
            {...control}
            rows={4}
            maxLength={3000}
            value={values.template}
            onChange={(e) => set({ template: e.target.value })}
          />
        )}
      </Field>
      <label className="check">
        <input type="checkbox" checked={values.ai} onChange={(e) => set({ ai: e.target.checked })} />
        {t.feeds.ai}
      </label>
      <label className="check">
        <input type="checkbox" checked={values.backfill} onChange={(e) => set({ backfill: e.target.checked })} />
        {t.feeds.backfill}
      </label>
      <ErrorText error={error} fields={FIELDS} />
      <Button type="submit" variant="primary" busy={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}

function CreateFeed() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (v: FormValues) => must(api.POST('/unified/feeds', { body: toBody(v) })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queryClient.invalidateQueries({ queryKey: feedsKey(workspace.id) });
    },
  });
  return (
    <section aria-labelledby="new-feed-heading">
      <h2 id="new-feed-heading">{t.feeds.create}</h2>
      <FeedForm
        key={formKey}
        title={t.feeds.create}
        initial={{
          url: '',
          networks: [],
          mode: 'draft',
          queue: DEFAULT_QUEUE,
          delay_minutes: 60,
          template: '{title}\n\n{link}',
          ai: false,
          backfill: false,
        }}
        submitLabel={t.feeds.createButton}
        onSubmit={(v) => create.mutate(v)}
        busy={create.isPending}
        error={create.error}
      />
    </section>
  );
}

function FeedList({ feeds }: { feeds: Feed[] }) {
  const { workspace } = useWorkspace();
  const time = useWorkspaceTime();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Feed | undefined>();
  const [notice, setNotice] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: feedsKey(workspace.id) });
  const patch = useMutation({
    mutationFn: (v: { id: string; body: Partial<ReturnType<typeof toBody>> & { paused?: boolean } }) =>
      must(api.PATCH('/unified/feeds/{id}', { params: { path: { id: v.id } }, body: v.body })),
    onSuccess: () => {
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => must(api.DELETE('/unified/feeds/{id}', { params: { path: { id } } })),
    onSuccess: () => void refresh(),
  });
  const poll = useMutation({
    mutationFn: (id: string) => must(api.POST('/unified/feeds/{id}/poll', { params: { path: { id } } })),
    onSuccess: (r) => {
      setNotice(r.status === 'failed' ? t.feeds.pollFailed(r.error ?? '') : t.feeds.polled(r.seen, r.posted));
      void refresh();
    },
  });
  if (feeds.length === 0) return <Empty title={t.feeds.empty} />;
  return (
    <>
      <p role="status" className="muted">
        {notice}
      </p>
      <ErrorText error={(editing ? null : patch.error) ?? remove.error ?? poll.error} />
      <DataTable
        caption={t.feeds.listTitle}
        columns={[t.feeds.url, t.feeds.networks, t.feeds.status, '']}
        actionsLabel={t.feeds.actions}
        stack
      >
        {feeds.map((f) => (
          <tr key={f.id}>
            <th scope="row" className="webhook-url">
              {f.url}
              <span className="muted"> — {modeLabel(f)}</span>
            </th>
            <td>{f.networks.map(networkName).join(', ')}</td>
            <td>
              <span className={`badge ${f.paused ? 'badge-warning' : f.failures ? 'badge-danger' : 'badge-success'}`}>
                {f.paused ? t.feeds.paused : f.failures ? t.feeds.failing : t.feeds.active}
              </span>
              <span className="webhook-reason feed-reason">
                {f.last_success_at ? t.feeds.lastSuccess(time.dateTime(f.last_success_at)) : t.feeds.neverPolled}
              </span>
              {f.last_error && f.last_error_at && (
                <span className="webhook-reason feed-reason">
                  {t.feeds.lastError(time.dateTime(f.last_error_at), f.last_error)}
                </span>
              )}
            </td>
            <td className="row-actions">
              <div className="row">
                <Button
                  aria-label={t.feeds.pollOf(f.url)}
                  busy={poll.isPending && poll.variables === f.id}
                  onClick={() => poll.mutate(f.id)}
                >
                  {t.feeds.poll}
                </Button>
                <Button
                  aria-label={t.feeds.editOf(f.url)}
                  onClick={() => {
                    patch.reset();
                    setEditing(f);
                  }}
                >
                  {t.feeds.edit}
                </Button>
                <Button
                  aria-label={f.paused ? t.feeds.resumeOf(f.url) : t.feeds.pauseOf(f.url)}
                  busy={patch.isPending && patch.variables?.id === f.id && !editing}
                  onClick={() => patch.mutate({ id: f.id, body: { paused: !f.paused } })}
                >
                  {f.paused ? t.feeds.resume : t.feeds.pause}
                </Button>
                <ConfirmButton
                  label={t.feeds.delete}
                  confirmLabel={t.feeds.confirmDelete}
                  ariaLabel={t.feeds.deleteOf(f.url)}
                  busy={remove.isPending && remove.variables === f.id}
                  onConfirm={() => remove.mutate(f.id)}
                />
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      {editing && (
        <Dialog
          open
          title={t.feeds.edit}
          onClose={() => setEditing(undefined)}
          actions={<Button onClick={() => setEditing(undefined)}>{t.common.cancel}</Button>}
        >
          <FeedForm
            title={t.feeds.edit}
            initial={{
              url: editing.url,
              networks: editing.networks,
              mode: editing.mode,
              queue: editing.queue ?? DEFAULT_QUEUE,
              delay_minutes: editing.schedule.delay_minutes,
              template: editing.template,
              ai: editing.ai,
              backfill: editing.backfill,
            }}
            submitLabel={t.feeds.saveButton}
            onSubmit={(v) => patch.mutate({ id: editing.id, body: toBody(v) })}
            busy={patch.isPending}
            error={patch.error}
          />
        </Dialog>
      )}
    </>
  );
}

export default function FeedsPage() {
  const { workspace } = useWorkspace();
  const list = useQuery({ queryKey: feedsKey(workspace.id), queryFn: () => must(api.GET('/unified/feeds')) });
  return (
    <>
      <PageHeader title={t.nav.feeds} />
      <p className="lead">{t.feeds.intro}</p>
      {list.error instanceof ApiError && list.error.code === 'plan_required' ? (
        <p className="page-note" role="note">
          {list.error.message}
        </p>
      ) : (
        <QueryView query={list}>
          {(data) => (
            <div className="keys-layout">
              <CreateFeed />
              <section aria-labelledby="feeds-list-heading">
                <h2 id="feeds-list-heading">{t.feeds.listTitle}</h2>
                <FeedList feeds={data.feeds} />
              </section>
            </div>
          )}
        </QueryView>
      )}
    </>
  );
}
