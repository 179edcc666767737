// Queues: the workspace's posting queues — each with its weekly slots (add, remove), its time zone and pause — and a
// form to create one. The composer's "Add to queue" puts a post in the default queue's next free slot.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../../api/client.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Field, TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, QueryView } from '../../ui/States.tsx';
import '../../styles/pages.css';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type Day = (typeof DAYS)[number];
type Slot = { day: Day; time: string };
type Queue = {
  name: string;
  time_zone: string;
  time_zone_override: string | null;
  slots: Slot[];
  paused: boolean;
  queued_posts: number;
};

/** Every query of this page starts with it: a change to a queue (or a post added to one) refreshes them all. */
export const queuesKey = (workspaceId: string) => ['queues', workspaceId] as const;

/** The queue's next free times (GET /unified/queue/{queue}/next-slots): the slots a post added now would take. */
function NextSlots({ queue }: { queue: Queue }) {
  const { workspace } = useWorkspace();
  const next = useQuery({
    queryKey: [...queuesKey(workspace.id), queue.name, 'next-slots'],
    queryFn: () =>
      must(
        api.GET('/unified/queue/{queue}/next-slots', {
          params: { path: { queue: queue.name }, query: { count: 3 } },
        }),
      ),
  });
  const fmt = new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: queue.time_zone,
  });
  return (
    <QueryView query={next}>
      {(d) => {
        const slots = d.data?.slots ?? [];
        return (
          <div className="queue-next">
            <h3>{t.queues.nextSlots}</h3>
            {slots.length === 0 ? (
              <p className="muted">{t.queues.noSlots}</p>
            ) : (
              <ol>
                {slots.map((x) => (
                  <li key={x.slot_time}>
                    <time dateTime={x.slot_time}>{fmt.format(new Date(x.slot_time))}</time>
                  </li>
                ))}
              </ol>
            )}
          </div>
        );
      }}
    </QueryView>
  );
}

function QueueCard({ queue }: { queue: Queue }) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [day, setDay] = useState<Day>('monday');
  const [time, setTime] = useState('09:00');
  const [zone, setZone] = useState(queue.time_zone_override ?? '');
  const save = useMutation({
    mutationFn: (body: { slots?: Slot[]; paused?: boolean; time_zone?: string | null }) =>
      must(api.PATCH('/unified/queues/{queue}', { params: { path: { queue: queue.name } }, body })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queuesKey(workspace.id) }),
  });
  return (
    <section className="card" aria-label={t.queues.queueLabel(queue.name)}>
      <h2>
        {queue.name} {queue.paused && <span className="badge badge-warning">{t.queues.paused}</span>}
      </h2>
      <p>{t.queues.summary(queue.queued_posts, queue.time_zone)}</p>
      <NextSlots queue={queue} />
      <ul className="queue-slots">
        {queue.slots.map((s) => (
          <li key={`${s.day} ${s.time}`}>
            <span>
              {t.queues.day[s.day]} {s.time}
            </span>
            <Button
              variant="ghost"
              aria-label={t.queues.removeSlot(`${t.queues.day[s.day]} ${s.time}`)}
              onClick={() => save.mutate({ slots: queue.slots.filter((x) => x.day !== s.day || x.time !== s.time) })}
            >
              {t.queues.remove}
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="row queue-form"
        aria-label={t.queues.addSlot}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ slots: [...queue.slots, { day, time }] });
        }}
      >
        <Field label={t.queues.dayLabel}>
          {(c) => (
            <select {...c} value={day} onChange={(e) => setDay(e.target.value as Day)}>
              {DAYS.map((d) => (
                <option key={d} value={d}>
                  {t.queues.day[d]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField label={t.queues.timeLabel} type="time" value={time} onChange={(e) => setTime(e.target.value)} />
        <Button type="submit">{t.queues.addSlot}</Button>
      </form>
      <form
        className="row queue-form"
        aria-label={t.queues.zoneLabel}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ time_zone: zone.trim() || null });
        }}
      >
        <TextField
          label={t.queues.zoneLabel}
          value={zone}
          placeholder={workspace.time_zone}
          onChange={(e) => setZone(e.target.value)}
        />
        <Button type="submit">{t.queues.saveZone}</Button>
      </form>
      <Button busy={save.isPending} onClick={() => save.mutate({ paused: !queue.paused })}>
        {queue.paused ? t.queues.resume : t.queues.pause}
      </Button>
      <ErrorText error={save.error} fields={['slots', 'time_zone']} />
    </section>
  );
}

export default function QueuesPage() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const queues = useQuery({
    queryKey: queuesKey(workspace.id),
    queryFn: () => must(api.GET('/unified/queues')),
  });
  const create = useMutation({
    mutationFn: (n: string) => must(api.POST('/unified/queues', { body: { name: n } })),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: queuesKey(workspace.id) });
    },
  });
  return (
    <>
      <PageHeader title={t.nav.queues} />
      <p>{t.queues.intro}</p>
      <QueryView query={queues}>
        {(data) => (
          <div className="stack">
            {(data.data?.queues ?? []).map((q) => (
              <QueueCard key={q.name} queue={q as Queue} />
            ))}
          </div>
        )}
      </QueryView>
      <form
        className="card form-card"
        aria-label={t.queues.create}
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <TextField label={t.queues.nameLabel} value={name} onChange={(e) => setName(e.target.value)} />
        <Button type="submit" variant="primary" busy={create.isPending}>
          {t.queues.create}
        </Button>
        <ErrorText error={create.error} fields={['name']} />
      </form>
    </>
  );
}
