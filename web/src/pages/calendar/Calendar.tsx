// The calendar: month, week and list views of the queue, drafts and published posts in the workspace time zone,
// coloured by status and filtered by network. Dragging a scheduled post reschedules it (PATCH); opening any post
// shows it, with the network's reason and a retry for a failed one. This module is its own chunk (React.lazy), and
// FullCalendar (CalendarView.tsx) another: the page's heading, hint and filters paint without waiting for it.
import type { EventClickInfo, EventDropInfo, EventInput } from '@fullcalendar/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { historyKey, publishQueuedNow, useHistory } from '../../api/history.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import {
  type CalendarItem,
  instantOfCalendarDate,
  itemsInRange,
  type PlacedItem,
  placeItems,
} from '../../calendar/items.ts';
import { fromZonedLocal, toZonedLocal } from '../../compose/zoned-time.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, QueryView } from '../../ui/States.tsx';
import type { VisibleRange } from './CalendarView.tsx';
import './calendar.css';

const CalendarView = lazy(() => import('./CalendarView.tsx'));

const STATUSES = ['scheduled', 'publishing', 'published', 'failed', 'draft'] as const;

/** A day in ms: a view's events are looked up from a day before its start (an event may run into the range). */
const DAY_MS = 86_400_000;

/** The event FullCalendar shows for a placed item. */
function eventOf(p: PlacedItem): EventInput {
  const i = p.item;
  return {
    id: i.id,
    title: `${networkName(i.platform)} · ${i.text.slice(0, 60) || t.calendar.noText}`,
    start: p.start,
    allDay: false,
    className: `ev-${i.status}`,
    // The status colour, from the app's palette (light or dark).
    color: `var(--status-${i.status === 'cancelled' ? 'draft' : i.status})`,
    contrastColor: '#fff',
    startEditable: i.status === 'scheduled',
    durationEditable: false,
    extendedProps: { item: i },
  };
}

export default function Calendar() {
  const { workspace } = useWorkspace();
  const tz = workspace.time_zone;
  const data = useHistory();
  const queryClient = useQueryClient();
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<CalendarItem>();
  const [notice, setNotice] = useState<string>();
  const [dropError, setDropError] = useState<unknown>();

  // The zone's first date formatter costs tens of milliseconds (the browser loads the zone's rules): it is made
  // while the posts are being fetched, not after they arrived.
  useEffect(() => void toZonedLocal(new Date(), tz), [tz]);
  const items = data.data?.items;
  const networks = useMemo(() => [...new Set((items ?? []).map((i) => i.platform))].sort(), [items]);
  // Each item placed in the zone and made an event once per answer (not again for a filter or a view change).
  const placed = useMemo(() => placeItems(items ?? [], tz), [items, tz]);
  // FullCalendar asks for the events of the range it shows (a day, a week, a month's six weeks), not all of them;
  // an item becomes an event the first time a range shows it (a phone's first day needs a handful, not a thousand).
  // Placed items are new objects for each answer, so the cache needs no clearing.
  const [events] = useState(() => new WeakMap<PlacedItem, EventInput>());
  const source = useCallback(
    (range: VisibleRange) =>
      itemsInRange(placed, range.start.getTime() - DAY_MS, range.end.getTime())
        .filter((p) => !hidden.has(p.item.platform))
        .map((p) => {
          let event = events.get(p);
          if (!event) {
            event = eventOf(p);
            events.set(p, event);
          }
          return event;
        }),
    [placed, events, hidden],
  );

  const reschedule = useMutation({
    mutationFn: ({ id, at }: { id: string; at: Date }) =>
      must(
        api.PATCH('/unified/scheduled-posts/{id}', {
          params: { path: { id } },
          body: { scheduled_time: at.toISOString() },
        }),
      ),
    onSuccess: () => {
      setNotice(t.calendar.moved);
      return queryClient.invalidateQueries({ queryKey: historyKey(workspace.id) });
    },
  });

  // The handlers FullCalendar gets stay the same functions, so a notice or an opened post does not render it again.
  const latest = useRef({ tz, reschedule: reschedule.mutate });
  latest.current = { tz, reschedule: reschedule.mutate };
  const onDrop = useCallback((arg: EventDropInfo) => {
    const item = arg.event.extendedProps.item as CalendarItem;
    const at = arg.event.start && instantOfCalendarDate(arg.event.start, latest.current.tz);
    if (!item.queueId || !at) return arg.revert();
    setDropError(undefined);
    latest.current.reschedule(
      { id: item.queueId, at },
      {
        onError: (err) => {
          arg.revert();
          setDropError(err);
        },
      },
    );
  }, []);
  const onClick = useCallback((arg: EventClickInfo) => {
    arg.jsEvent.preventDefault();
    setOpen(arg.event.extendedProps.item as CalendarItem);
  }, []);

  return (
    <>
      <PageHeader title={t.nav.calendar}>
        <Link className="btn" to="/import">
          {t.posts.import}
        </Link>
      </PageHeader>
      <p className="muted">
        {t.calendar.zone(tz)} {t.calendar.dragHint}
      </p>
      <div className="calendar-top">
        <QueryView query={data}>
          {(d) => (
            <>
              {!d.schedulingAvailable && <p className="notice">{t.calendar.noScheduling}</p>}
              <div className="calendar-bar">
                {networks.length > 0 && (
                  <CheckGroup
                    className="calendar-filters"
                    legend={t.calendar.filters}
                    options={networks.map((n) => ({ value: n, label: networkName(n) }))}
                    selected={networks.filter((n) => !hidden.has(n))}
                    onChange={(shown) => setHidden(new Set(networks.filter((n) => !shown.includes(n))))}
                  />
                )}
                <ul className="calendar-legend" aria-label={t.calendar.legend}>
                  {STATUSES.map((s) => (
                    <li key={s}>
                      <span className={`legend-dot legend-${s}`} aria-hidden="true" />
                      {t.calendar.statuses[s]}
                    </li>
                  ))}
                </ul>
              </div>
              {notice && (
                <p className="notice notice-success" role="status">
                  {notice}
                </p>
              )}
              <ErrorText error={dropError} />
              {d.items.length === 0 && <p className="muted">{t.calendar.empty}</p>}
            </>
          )}
        </QueryView>
      </div>
      {/* The calendar itself is drawn while the posts load: once they are in, only their events are rendered. */}
      {!data.isError && (
        <div className="calendar-frame">
          <Suspense fallback={<div className="calendar-pending" />}>
            <CalendarView tz={tz} source={source} any={(items?.length ?? 0) > 0} onDrop={onDrop} onClick={onClick} />
          </Suspense>
        </div>
      )}
      <PostDialog
        item={open}
        onClose={() => setOpen(undefined)}
        onChanged={(message) => {
          if (message) setNotice(message);
          void queryClient.invalidateQueries({ queryKey: historyKey(workspace.id) });
        }}
      />
    </>
  );
}

function PostDialog({
  item,
  onClose,
  onChanged,
}: {
  item: CalendarItem | undefined;
  onClose: () => void;
  onChanged: (message: string) => void;
}) {
  const { workspace } = useWorkspace();
  const tz = workspace.time_zone;
  const [when, setWhen] = useState('');
  const [seen, setSeen] = useState<string>();
  if (item && item.id !== seen) {
    setSeen(item.id);
    setWhen(toZonedLocal(new Date(item.at), tz));
  }
  const move = useMutation({
    mutationFn: () => {
      const at = fromZonedLocal(when, tz);
      if (!item?.queueId || !at) throw new Error(t.compose.scheduleInvalid);
      return must(
        api.PATCH('/unified/scheduled-posts/{id}', {
          params: { path: { id: item.queueId } },
          body: { scheduled_time: at.toISOString() },
        }),
      );
    },
    onSuccess: () => {
      onChanged(t.calendar.moved);
      onClose();
    },
  });
  const retry = useMutation({
    mutationFn: () => publishQueuedNow(item!.queueId!),
    onSuccess: (message) => {
      onChanged(message || t.calendar.retried);
      onClose();
    },
    // A refused retry changed the entry (attempts, reason): show it fresh.
    onError: () => onChanged(''),
  });
  const close = () => {
    move.reset();
    retry.reset();
    onClose();
  };
  const when_ = item
    ? new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: tz }).format(
        new Date(item.at),
      )
    : '';
  return (
    <Dialog
      open={item !== undefined}
      title={item ? `${networkName(item.platform)} · ${t.calendar.statuses[item.status] ?? item.status}` : ''}
      onClose={close}
      actions={
        <>
          {item?.status === 'failed' && item.queueId && (
            <Button variant="primary" busy={retry.isPending} onClick={() => retry.mutate()}>
              {t.calendar.retry}
            </Button>
          )}
          {item?.status === 'scheduled' && item.queueId && (
            <Button busy={retry.isPending} onClick={() => retry.mutate()}>
              {t.calendar.publishNow}
            </Button>
          )}
          <Button onClick={close}>{t.common.close}</Button>
        </>
      }
    >
      {item && (
        <div className="stack">
          <p>
            <strong>{t.calendar.when}:</strong> {when_}
          </p>
          <p className="post-text">{item.text || t.calendar.noText}</p>
          {item.status === 'failed' && (
            <div className="notice notice-error">
              <p>
                <strong>{t.calendar.reason}:</strong> {item.error ?? t.calendar.noReason}
              </p>
            </div>
          )}
          {item.permalink && (
            <p>
              <a href={item.permalink} target="_blank" rel="noreferrer">
                {t.calendar.open}
              </a>
            </p>
          )}
          {item.status === 'scheduled' && item.queueId && (
            <form
              className="row"
              onSubmit={(e) => {
                e.preventDefault();
                move.mutate();
              }}
            >
              <TextField
                label={t.calendar.reschedule}
                type="datetime-local"
                value={when}
                onChange={(e) => setWhen(e.target.value)}
                error={move.error ? errorMessage(move.error) : undefined}
              />
              <Button type="submit" busy={move.isPending}>
                {t.calendar.saveTime}
              </Button>
            </form>
          )}
          <ErrorText error={retry.error} />
        </div>
      )}
    </Dialog>
  );
}
