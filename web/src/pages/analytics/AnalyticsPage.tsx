// Analytics: totals per network (GET /unified/analytics), and charts from the stored metric history of the recent
// posts (GET /unified/posts, then GET /unified/posts/{id}/metrics per post) over a date range: one curve per network,
// and one post's numbers. Every chart has its numbers as a table for screen readers and keyboard users.
import { useQueries, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { networkName } from '../../api/networks.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { Empty, ErrorState, Loading } from '../../ui/States.tsx';
import { slicesOf } from '../inbox/threads.ts';
import '../../styles/pages.css';
import {
  type ChartData,
  customRange,
  METRICS,
  type Metric,
  networkSeries,
  type PostHistory,
  type PostNumbers,
  postSeries,
  postsInRange,
  presetRange,
  RANGE_PRESETS,
  type Range,
  tableRows,
  totalsOf,
} from './series.ts';

const Chart = lazy(() => import('./Chart.tsx'));

/** The networks of an analytics answer that are connected (the others answer zeros and NOT_CONNECTED). */
function connected<T extends { error: string | null }>(platforms: Record<string, T>): [string, T][] {
  return Object.entries(platforms).filter(([, n]) => n.error !== 'NOT_CONNECTED');
}

/** At most this many posts' histories are read for the charts (one request each). */
const MAX_POSTS = 40;

type Post = PostNumbers & { platform: string; commentary: string | null; permalink: string | null };

// Daily buckets are UTC days (series.ts); a post's readings are shown in the workspace's zone.
const utcDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dayLabel = (seconds: number) => utcDay.format(new Date(seconds * 1000));
const metricLabel = (m: string) => t.analytics.metrics[m as Metric] ?? m;
const networkLabel = networkName;

function ChartFigure({
  title,
  data,
  labels,
  formatX,
  timeZone,
}: {
  title: string;
  data: ChartData;
  labels: (s: string) => string;
  formatX: (s: number) => string;
  timeZone: string;
}) {
  const captionId = useId();
  const rows = tableRows(data, formatX);
  const last = rows.at(-1);
  return (
    <figure className="chart-figure card" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        <h2>{title}</h2>
        {last && (
          <p className="chart-summary">
            {t.analytics.latest(
              last[0] ?? '',
              data.series.map((s, i) => `${labels(s.label)} ${last[i + 1]}`).join(', '),
            )}
          </p>
        )}
      </figcaption>
      {data.xs.length === 0 ? (
        <p>{t.analytics.noHistory}</p>
      ) : (
        <>
          <Suspense fallback={<Loading label={t.analytics.loadingChart} />}>
            <Chart data={data} labels={labels} timeZone={timeZone} />
          </Suspense>
          <details className="chart-table">
            <summary>{t.analytics.showTable}</summary>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">{title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.analytics.date}</th>
                    {data.series.map((s) => (
                      <th scope="col" key={s.label}>
                        {labels(s.label)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r, i) => (
                    <tr key={data.xs[i]}>
                      <th scope="row">{r[0]}</th>
                      {r.slice(1).map((v, j) => (
                        <td key={data.series[j]?.label}>{v}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}

function RangePicker({ range, onChange }: { range: Range; onChange: (r: Range, preset: number | null) => void }) {
  const [preset, setPreset] = useState<number | null>(30);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const fromId = useId();
  const toId = useId();
  const custom = customRange(from, to);
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">{t.analytics.range}</legend>
      <div className="segmented">
        {RANGE_PRESETS.map((d) => (
          <Button
            key={d}
            variant={preset === d ? 'primary' : 'secondary'}
            aria-pressed={preset === d}
            onClick={() => {
              setPreset(d);
              onChange(presetRange(d, Date.now()), d);
            }}
          >
            {t.analytics.lastDays(d)}
          </Button>
        ))}
      </div>
      <form
        className="custom-range"
        onSubmit={(e) => {
          e.preventDefault();
          if (custom) {
            setPreset(null);
            onChange(custom, null);
          }
        }}
      >
        <div className="field field-inline">
          <label htmlFor={fromId}>{t.analytics.from}</label>
          <input id={fromId} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field field-inline">
          <label htmlFor={toId}>{t.analytics.to}</label>
          <input id={toId} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        <Button type="submit" disabled={!custom}>
          {t.analytics.apply}
        </Button>
      </form>
      <p className="filters-count">{t.analytics.showing(dayLabel(range.from / 1000), dayLabel(range.to / 1000))}</p>
    </fieldset>
  );
}

export default function AnalyticsPage() {
  const { workspace } = useWorkspace();
  const time = useWorkspaceTime();
  const [range, setRange] = useState<Range>(() => presetRange(30, Date.now()));
  const [metric, setMetric] = useState<Metric>('like_count');
  const [postKey, setPostKey] = useState<string>('');
  const metricId = useId();
  const postId = useId();

  const analytics = useQuery({
    queryKey: ['analytics', 'totals', workspace.id],
    queryFn: () => must(api.GET('/unified/analytics', { params: { query: {} } })),
  });
  const postsQuery = useQuery({
    queryKey: ['analytics', 'posts', workspace.id],
    queryFn: () => must(api.GET('/unified/posts', { params: { query: { limit: 50 } } })),
  });
  const posts: Post[] = useMemo(() => {
    if (!postsQuery.data) return [];
    const all: Post[] = [];
    for (const [platform, slice] of slicesOf<{ posts: Omit<Post, 'platform'>[] }>(
      postsQuery.data as Record<string, unknown>,
    ))
      for (const p of slice.posts) all.push({ ...p, platform });
    return all.sort((a, b) => Date.parse(b.published_at ?? '') - Date.parse(a.published_at ?? ''));
  }, [postsQuery.data]);
  // The histories of the posts that existed during the range (those published after it have nothing in it).
  const charted = useMemo(
    () => posts.filter((p) => !p.published_at || Date.parse(p.published_at) <= range.to).slice(0, MAX_POSTS),
    [posts, range.to],
  );
  const histories = useQueries({
    queries: charted.map((p) => ({
      queryKey: ['analytics', 'metrics', workspace.id, p.platform, p.post_id],
      queryFn: () =>
        must(
          api.GET('/unified/posts/{post_id}/metrics', {
            params: { path: { post_id: p.post_id }, query: { platform: p.platform } },
          }),
        ),
      staleTime: 60_000,
    })),
  });
  const historyList: PostHistory[] = histories.flatMap((h, i) =>
    h.data ? [{ platform: charted[i]!.platform, postId: charted[i]!.post_id, series: h.data.series }] : [],
  );
  const historyError = histories.find((h) => h.error)?.error;
  const historiesLoading = histories.some((h) => h.isPending);
  const byNetwork = networkSeries(historyList, metric, range);
  const inRange = postsInRange(posts, range);
  const totals = totalsOf(inRange);
  const selected = charted.find((p) => `${p.platform}:${p.post_id}` === postKey) ?? charted[0];
  const selectedHistory = selected
    ? historyList.find((h) => h.platform === selected.platform && h.postId === selected.post_id)
    : undefined;

  return (
    <>
      <PageHeader title={t.analytics.title} />
      <RangePicker range={range} onChange={(r) => setRange(r)} />

      <section aria-labelledby="totals-heading" className="analytics-section">
        <h2 id="totals-heading">{t.analytics.totalsInRange}</h2>
        {postsQuery.isPending ? (
          <Loading />
        ) : postsQuery.error ? (
          <ErrorState error={postsQuery.error} onRetry={() => void postsQuery.refetch()} />
        ) : (
          <dl className="stat-grid">
            <div className="stat card">
              <dt>{t.analytics.posts}</dt>
              <dd>{totals.posts}</dd>
            </div>
            {METRICS.map((m) => (
              <div className="stat card" key={m}>
                <dt>{t.analytics.metrics[m]}</dt>
                <dd>{totals[m].toLocaleString()}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <section aria-labelledby="networks-heading" className="analytics-section">
        <h2 id="networks-heading">{t.analytics.perNetwork}</h2>
        {analytics.isPending ? (
          <Loading />
        ) : analytics.error ? (
          <ErrorState error={analytics.error} onRetry={() => void analytics.refetch()} />
        ) : connected(analytics.data.platforms).length === 0 ? (
          <Empty title={t.analytics.noNetworks} />
        ) : (
          <DataTable
            caption={t.analytics.perNetwork}
            columns={[
              t.analytics.network,
              t.analytics.posts,
              t.analytics.likes,
              t.analytics.comments,
              t.analytics.reach,
              t.analytics.engagement,
            ]}
            footer={
              <tr>
                <th scope="row">{t.analytics.allNetworks}</th>
                <td>{analytics.data.totals.post_count}</td>
                <td>{analytics.data.totals.total_likes}</td>
                <td>{analytics.data.totals.total_comments}</td>
                <td>{analytics.data.totals.total_reach}</td>
                <td>{(analytics.data.totals.average_engagement_rate * 100).toFixed(1)} %</td>
              </tr>
            }
          >
            {connected(analytics.data.platforms).map(([net, n]) => (
              <tr key={net}>
                <th scope="row">
                  {networkName(net)}
                  {n.error && <span className="cell-note">{n.message ?? n.error}</span>}
                </th>
                <td>{n.post_count}</td>
                <td>{n.total_likes}</td>
                <td>{n.total_comments}</td>
                <td>{n.total_reach}</td>
                <td>{(n.average_engagement_rate * 100).toFixed(1)} %</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>

      <section aria-labelledby="charts-heading" className="analytics-section">
        <h2 id="charts-heading">{t.analytics.history}</h2>
        <div className="filters">
          <div className="field field-inline">
            <label htmlFor={metricId}>{t.analytics.metric}</label>
            <select id={metricId} value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
              {METRICS.map((m) => (
                <option key={m} value={m}>
                  {t.analytics.metrics[m]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {postsQuery.isPending || (historiesLoading && historyList.length === 0) ? (
          <Loading />
        ) : historyError ? (
          <ErrorState error={historyError} onRetry={() => histories.forEach((h) => void h.refetch())} />
        ) : charted.length === 0 ? (
          <Empty title={t.analytics.noPosts}>
            <p>{t.analytics.noPostsHint}</p>
          </Empty>
        ) : (
          <>
            <ChartFigure
              title={t.analytics.networkChart(t.analytics.metrics[metric])}
              data={byNetwork}
              labels={networkLabel}
              formatX={dayLabel}
              timeZone="UTC"
            />
            <div className="field field-inline post-picker">
              <label htmlFor={postId}>{t.analytics.post}</label>
              <select
                id={postId}
                value={selected ? `${selected.platform}:${selected.post_id}` : ''}
                onChange={(e) => setPostKey(e.target.value)}
              >
                {charted.map((p) => (
                  <option key={`${p.platform}:${p.post_id}`} value={`${p.platform}:${p.post_id}`}>
                    {`${networkName(p.platform)} · ${(p.commentary ?? p.post_id).slice(0, 60)}`}
                  </option>
                ))}
              </select>
              {selected?.permalink && (
                <a href={selected.permalink} target="_blank" rel="noreferrer">
                  {t.analytics.openPost}
                </a>
              )}
            </div>
            {selectedHistory && (
              <ChartFigure
                title={t.analytics.postChart}
                data={postSeries(selectedHistory.series, range)}
                labels={metricLabel}
                formatX={(x) => time.dateTime(new Date(x * 1000).toISOString())}
                timeZone={workspace.time_zone}
              />
            )}
          </>
        )}
      </section>
    </>
  );
}
