// FullCalendar with the calendar page's events: its own chunk, loaded beside the page's (the heading, the hint and the
// filters paint without it). The page hands it a source of events for a range and the drop and click handlers.
import FullCalendar, {
  type CalendarApi,
  type EventClickInfo,
  type EventDropInfo,
  type EventInput,
  type EventSourceFunc,
  type PluginInput,
} from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import listPlugin from '@fullcalendar/react/list';
import classicTheme from '@fullcalendar/react/themes/classic';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toZonedLocal } from '../../compose/zoned-time.ts';
import { t } from '../../i18n/index.ts';

/** The calendar's height in pixels: six month rows of four events each (the page's placeholder has it too). */
const CALENDAR_HEIGHT = 820;

const PHONE = '(max-width: 760px)';
/** The dates a view shows: calendar time (the zone's wall time read as UTC). */
export type VisibleRange = { start: Date; end: Date };
const BASE_PLUGINS: PluginInput[] = [classicTheme, dayGridPlugin, listPlugin, interactionPlugin];

/**
 * FullCalendar with the page's events. Memoized: only a new zone or new events (an answer, a filter) render it
 * again. The week's time grid is its own chunk, loaded when the week is first asked for; until then the toolbar's
 * Week button is ours and loads it. On a phone the list starts with the day (a week of a busy workspace is hundreds
 * of rows); the week's list is a button away.
 */
export default memo(function CalendarView({
  tz,
  source,
  any,
  onDrop,
  onClick,
}: {
  tz: string;
  source: (range: VisibleRange) => EventInput[];
  /** Whether the workspace has anything to show (the render measure waits for events then). */
  any: boolean;
  onDrop: (arg: EventDropInfo) => void;
  onClick: (arg: EventClickInfo) => void;
}) {
  const calendar = useRef<{ getApi(): CalendarApi }>(null);
  const [phone] = useState(() => window.matchMedia(PHONE).matches);
  const [timeGrid, setTimeGrid] = useState<PluginInput>();
  const [weekAsked, setWeekAsked] = useState(false);
  const rendered = useRef(false);
  // The last answer to FullCalendar's request for events, from which source: the calendar is rendered once it holds
  // the current source's answer.
  const answered = useRef<{ source: unknown; count: number }>(undefined);
  const current = useRef(source);
  current.current = source;

  const plugins = useMemo(() => (timeGrid ? [...BASE_PLUGINS, timeGrid] : BASE_PLUGINS), [timeGrid]);
  const week = timeGrid ? 'timeGridWeek' : 'week';
  const headerToolbar = useMemo(
    () => ({
      left: 'prev,next today',
      center: 'title',
      right: phone ? 'listDay,listWeek,dayGridMonth' : `dayGridMonth,${week},listWeek`,
    }),
    [phone, week],
  );
  const buttons = useMemo(
    () => ({
      // The accessible name starts with the visible text (WCAG 2.5.3).
      today: { text: t.calendar.today, hint: t.calendar.today },
      dayGridMonth: { text: t.calendar.month, hint: t.calendar.month },
      timeGridWeek: { text: t.calendar.week, hint: t.calendar.week },
      week: {
        text: t.calendar.week,
        hint: t.calendar.week,
        click: () => {
          setWeekAsked(true);
          void import('@fullcalendar/react/timegrid').then((m) => setTimeGrid(() => m.default));
        },
      },
      listDay: { text: t.calendar.day, hint: t.calendar.day },
      listWeek: phone
        ? { text: t.calendar.week, hint: t.calendar.week }
        : { text: t.calendar.list, hint: t.calendar.list },
    }),
    [phone],
  );
  // Once the time grid is in, the week asked for opens.
  useEffect(() => {
    if (timeGrid && weekAsked) {
      setWeekAsked(false);
      calendar.current?.getApi().changeView('timeGridWeek');
    }
  }, [timeGrid, weekAsked]);
  const now = useCallback(() => toZonedLocal(new Date(), tz), [tz]);
  const events = useCallback<EventSourceFunc>(
    (range, success) => {
      const events = source(range);
      answered.current = { source, count: events.length };
      success(events);
    },
    [source],
  );
  const eventsSet = useCallback(
    (set: unknown[]) => {
      const a = answered.current;
      if (rendered.current || !any || a?.source !== current.current || set.length !== a.count) return;
      rendered.current = true;
      performance.mark('herald:calendar:rendered');
      performance.measure('herald:calendar', 'herald:calendar:data', 'herald:calendar:rendered');
    },
    [any],
  );

  return (
    <FullCalendar
      ref={calendar}
      plugins={plugins}
      initialView={phone ? 'listDay' : 'dayGridMonth'}
      headerToolbar={headerToolbar}
      buttons={buttons}
      timeZone="UTC"
      now={now}
      events={events}
      editable
      eventInteractive
      eventDrop={onDrop}
      eventClick={onClick}
      eventTimeFormat={EVENT_TIME}
      dayMaxEvents={4}
      // A fixed height (rather than "auto") keeps the month's rows from growing once their events are
      // measured, which moved the page under the reader (layout shift).
      height={CALENDAR_HEIGHT}
      eventsSet={eventsSet}
    />
  );
});

const EVENT_TIME = { hour: '2-digit', minute: '2-digit', hour12: false } as const;
