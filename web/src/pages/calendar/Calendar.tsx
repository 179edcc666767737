// The calendar: month, week and list views of the queue, drafts and published posts in the workspace time zone,
// coloured by status and filtered by network. Dragging a scheduled post reschedules it (PATCH); opening any post
// shows it, with the network's reason and a retry for a failed one. This module is its own chunk (React.lazy).
import FullCalendar, { type EventClickInfo, type EventDropInfo, type EventInput } from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import listPlugin from '@fullcalendar/react/list';
import classicTheme from '@fullcalendar/react/themes/classic';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { historyKey, publishQueuedNow, useHistory } from '../../api/history.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import { type CalendarItem, calendarStart, instantOfCalendarDate } from '../../calendar/items.ts';
import { fromZonedLocal, toZonedLocal } from '../../compose/zoned-time.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, QueryView } from '../../ui/States.tsx';
import './calendar.css';

/** The calendar's height in pixels: six month rows of four events each. */
const CALENDAR_HEIGHT = 820;

const STATUSES = ['scheduled', 'publishing', 'published', 'failed', 'draft'] as const;

export default function Calendar() {
  const { workspace } = useWorkspace();
  const tz = workspace.time_zone;
  const data = useHistory();
  const queryClient = useQueryClient();
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<CalendarItem>();
  const [notice, setNotice] = useState<string>();
  const [dropError, setDropError] = useState<unknown>();
  const rendered = useRef(false);

  const networks = useMemo(() => [...new Set((data.data?.items ?? []).map((i) => i.platform))].sort(), [data.data]);
  const events = useMemo<EventInput[]>(
    () =>
      (data.data?.items ?? [])
        .filter((i) => !hidden.has(i.platform))
        .map((i) => ({
          id: i.id,
          title: `${networkName(i.platform)} · ${i.text.slice(0, 60) || t.calendar.noText}`,
          start: calendarStart(i.at, tz),
          allDay: false,
          className: `ev-${i.status}`,
          // The status colour, from the app's palette (light or dark).
          color: `var(--status-${i.status === 'cancelled' ? 'draft' : i.status})`,
          contrastColor: '#fff',
          startEditable: i.status === 'scheduled',
          durationEditable: false,
          extendedProps: { item: i },
        })),
    [data.data, hidden, tz],
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

  const onDrop = (arg: EventDropInfo) => {
    const item = arg.event.extendedProps.item as CalendarItem;
    const at = arg.event.start && instantOfCalendarDate(arg.event.start, tz);
    if (!item.queueId || !at) return arg.revert();
    setDropError(undefined);
    reschedule.mutate(
      { id: item.queueId, at },
      {
        onError: (err) => {
          arg.revert();
          setDropError(err);
        },
      },
    );
  };

  const onClick = (arg: EventClickInfo) => {
    arg.jsEvent.preventDefault();
    setOpen(arg.event.extendedProps.item as CalendarItem);
  };

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
            <div className="calendar-frame">
              <FullCalendar
                plugins={[classicTheme, dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
                initialView={window.matchMedia('(max-width: 760px)').matches ? 'listWeek' : 'dayGridMonth'}
                headerToolbar={{
                  left: 'prev,next today',
                  center: 'title',
                  right: 'dayGridMonth,timeGridWeek,listWeek',
                }}
                buttons={{
                  // The accessible name starts with the visible text (WCAG 2.5.3).
                  today: { text: t.calendar.today, hint: t.calendar.today },
                  dayGridMonth: { text: t.calendar.month, hint: t.calendar.month },
                  timeGridWeek: { text: t.calendar.week, hint: t.calendar.week },
                  listWeek: { text: t.calendar.list, hint: t.calendar.list },
                }}
                timeZone="UTC"
                now={() => toZonedLocal(new Date(), tz)}
                events={events}
                editable
                eventInteractive
                eventDrop={onDrop}
                eventClick={onClick}
                eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
                dayMaxEvents={4}
                // A fixed height (rather than "auto") keeps the month's rows from growing once their events are
                // measured, which moved the page under the reader (layout shift).
                height={CALENDAR_HEIGHT}
                eventsSet={() => {
                  if (rendered.current || !d.items.length) return;
                  rendered.current = true;
                  performance.mark('herald:calendar:rendered');
                  performance.measure('herald:calendar', 'herald:calendar:data', 'herald:calendar:rendered');
                }}
              />
            </div>
          </>
        )}
      </QueryView>
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
