// The composer: one text with a tab per network for its own text, live counters by each network's rule, previews,
// media, destinations, AI help (copy from an idea or the media, an image from the text), then publish now, schedule
// (in the workspace time zone), save as draft, or send for another member's approval (published or scheduled once
// approved).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { fieldError } from '../../api/errors.ts';
import { historyKey } from '../../api/history.ts';
import { destinationsOf, networkName, useConnectionStatus, useProfiles } from '../../api/networks.ts';
import { usePlatforms } from '../../api/platforms.ts';
import { useWorkspace } from '../../app/session.tsx';
import {
  buildPostBody,
  publishedTextFor,
  buildScheduleBody,
  type ComposerState,
  emptyComposer,
  firstCommentFieldOf,
  postTypeOf,
  TEXT_OVERRIDE,
  textFieldOf,
} from '../../compose/post.ts';
import { publish, sendForApproval } from '../../compose/send.ts';
import { fromZonedLocal, toZonedLocal } from '../../compose/zoned-time.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { CheckGroup } from '../../ui/CheckGroup.tsx';
import { Field, TextField } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorText, QueryView } from '../../ui/States.tsx';
import { AiPanel } from './AiPanel.tsx';
import { Counter } from './Counter.tsx';
import { FirstComment } from './FirstComment.tsx';
import { MediaPicker } from './MediaPicker.tsx';
import { Preview } from './Preview.tsx';
import { type Outcome, outcomesOf } from './results.ts';
import './compose.css';

type Mode = 'publish' | 'schedule' | 'draft' | 'queue' | 'approval';

export default function Composer() {
  const { workspace } = useWorkspace();
  const status = useConnectionStatus();
  const profiles = useProfiles();
  const platforms = usePlatforms();
  const queryClient = useQueryClient();
  const [s, setS] = useState<ComposerState>(emptyComposer);
  const [tab, setTab] = useState<string>('all');
  const [when, setWhen] = useState(() => toZonedLocal(new Date(Date.now() + 3600_000), workspace.time_zone));
  const [whenError, setWhenError] = useState<string>();
  // Send for approval: scheduled at `when` once approved (else published once approved).
  const [approvalAt, setApprovalAt] = useState(false);
  // "Add to queue" takes this queue's next free slot (the Queues page sets their times).
  const [queue, setQueue] = useState('default');
  const queues = useQuery({
    queryKey: ['queues', workspace.id],
    queryFn: () => must(api.GET('/unified/queues')),
  });
  const queueNames = (queues.data?.data?.queues ?? []).map((q) => q.name);
  const tabsId = useId();

  const set = <K extends keyof ComposerState>(key: K, value: ComposerState[K]) => setS((x) => ({ ...x, [key]: value }));
  const rules = useMemo(
    () => Object.fromEntries((platforms.data?.platforms ?? []).map((p) => [p.slug, p])),
    [platforms.data],
  );
  const nameOf = (slug: string) => rules[slug]?.display_name ?? networkName(slug);
  // Networks that take no first comment (GET /unified/platforms: first_comment null).
  const noFirstComment = useMemo(
    () => (platforms.data?.platforms ?? []).filter((p) => !p.first_comment).map((p) => p.slug),
    [platforms.data],
  );
  const bodyRules = { noFirstComment };

  const send = useMutation({
    mutationFn: async (mode: Mode) => {
      if (mode === 'schedule') {
        const at = fromZonedLocal(when, workspace.time_zone);
        if (!at) throw new Error(t.compose.scheduleInvalid);
        return must(api.POST('/unified/scheduled-posts', { body: buildScheduleBody(s, at.toISOString(), bodyRules) }));
      }
      if (mode === 'queue') {
        const body = { ...buildPostBody(s, bodyRules), post_type: postTypeOf(s.media) };
        return must(api.POST('/unified/queue/{queue}/posts', { params: { path: { queue } }, body }));
      }
      const body = buildPostBody(s, bodyRules);
      if (mode === 'approval') {
        const at = approvalAt ? fromZonedLocal(when, workspace.time_zone) : undefined;
        if (approvalAt && !at) throw new Error(t.compose.scheduleInvalid);
        return sendForApproval(body, postTypeOf(s.media), at?.toISOString());
      }
      return publish(mode === 'draft' ? { ...body, draft: true } : body, postTypeOf(s.media));
    },
    onSuccess: (_data, mode) => {
      void queryClient.invalidateQueries({ queryKey: historyKey(workspace.id) });
      if (mode === 'queue') void queryClient.invalidateQueries({ queryKey: ['queues', workspace.id] });
    },
  });
  const mode = send.variables === 'queue' ? 'schedule' : (send.variables ?? 'publish');
  const outcomes: Outcome[] = send.data ? outcomesOf(send.data, mode) : [];
  const err = (field: string) => fieldError(send.error, field);
  const queued =
    send.variables === 'queue' && send.data && 'queue' in send.data
      ? (send.data.queue as { name: string; slot_time: string; time_zone: string } | undefined)
      : undefined;

  const submit = (mode: Mode) => (e?: FormEvent) => {
    e?.preventDefault();
    setWhenError(undefined);
    if ((mode === 'schedule' || (mode === 'approval' && approvalAt)) && !fromZonedLocal(when, workspace.time_zone)) {
      setWhenError(t.compose.scheduleInvalid);
      return;
    }
    send.mutate(mode);
  };

  return (
    <>
      <PageHeader title={t.nav.compose}>
        {(send.isSuccess || s.text) && (
          <Button
            onClick={() => {
              setS(emptyComposer());
              setTab('all');
              send.reset();
            }}
          >
            {t.compose.newPost}
          </Button>
        )}
      </PageHeader>
      <QueryView query={status}>
        {(st) => {
          const connected = Object.entries(st.results)
            .filter(([, r]) => r.connected)
            .map(([slug]) => slug);
          if (!connected.length)
            return (
              <Empty title={t.compose.noNetworks}>
                <Link className="btn btn-primary" to="/connections">
                  {t.compose.goConnect}
                </Link>
              </Empty>
            );
          const chosen = s.networks.filter((n) => connected.includes(n));
          const slice = (n: string) => profiles.data?.[n] ?? null;
          const dests = (n: string, kind: string) => destinationsOf(slice(n)).filter((d) => d.kind === kind);
          const tabNetworks = chosen.filter((n) => TEXT_OVERRIDE[n]);
          const activeTab = tab === 'all' || tabNetworks.includes(tab) ? tab : 'all';
          return (
            <form className="composer" onSubmit={submit('publish')} noValidate>
              <div className="composer-main">
                <CheckGroup
                  className="network-picker"
                  legend={t.compose.networks}
                  name="platforms"
                  options={connected.map((n) => ({ value: n, label: nameOf(n) }))}
                  selected={s.networks}
                  onChange={(v) => set('networks', v)}
                  error={err('platforms')}
                />

                <AiPanel state={s} networks={chosen} nameOf={nameOf} update={setS} />

                <div className="tabs" role="tablist" aria-label={t.compose.tabsLabel}>
                  {['all', ...tabNetworks].map((n) => (
                    <button
                      key={n}
                      type="button"
                      role="tab"
                      id={`${tabsId}-${n}`}
                      aria-selected={activeTab === n}
                      aria-controls={`${tabsId}-panel`}
                      tabIndex={activeTab === n ? 0 : -1}
                      onClick={() => setTab(n)}
                      onKeyDown={(e) => {
                        const all = ['all', ...tabNetworks];
                        const i = all.indexOf(activeTab);
                        const next =
                          e.key === 'ArrowRight'
                            ? all[(i + 1) % all.length]
                            : e.key === 'ArrowLeft'
                              ? all[(i - 1 + all.length) % all.length]
                              : undefined;
                        if (next) {
                          e.preventDefault();
                          setTab(next);
                          document.getElementById(`${tabsId}-${next}`)?.focus();
                        }
                      }}
                    >
                      {n === 'all' ? t.compose.allNetworks : nameOf(n)}
                      {n !== 'all' && (s.overrides[n]?.trim() || s.firstCommentOverrides[n]?.trim()) ? ' •' : ''}
                    </button>
                  ))}
                </div>
                <div role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${activeTab}`}>
                  {activeTab === 'all' ? (
                    <Field label={t.compose.text} hint={t.compose.textHint} error={err('default_text')}>
                      {(c) => (
                        <textarea
                          {...c}
                          name="default_text"
                          rows={7}
                          value={s.text}
                          onChange={(e) => set('text', e.target.value)}
                        />
                      )}
                    </Field>
                  ) : (
                    <Field
                      label={t.compose.ownText(nameOf(activeTab))}
                      hint={t.compose.ownTextHint}
                      error={err(textFieldOf(activeTab))}
                    >
                      {(c) => (
                        <textarea
                          {...c}
                          rows={7}
                          placeholder={s.text}
                          value={s.overrides[activeTab] ?? ''}
                          onChange={(e) => set('overrides', { ...s.overrides, [activeTab]: e.target.value })}
                        />
                      )}
                    </Field>
                  )}
                  <p className="counters" aria-live="polite">
                    {chosen.map((n) => (
                      <Counter
                        key={n}
                        name={nameOf(n)}
                        text={publishedTextFor(s, n)}
                        rule={rules[n]?.textRule ?? null}
                      />
                    ))}
                  </p>
                  {tabNetworks
                    .filter((n) => err(textFieldOf(n)) && activeTab !== n)
                    .map((n) => (
                      <p key={n} className="field-error" role="alert">
                        {nameOf(n)}: {err(textFieldOf(n))}
                      </p>
                    ))}
                  <FirstComment
                    state={s}
                    update={setS}
                    tab={activeTab}
                    chosen={chosen}
                    nameOf={nameOf}
                    rules={rules}
                    error={(n) => err(firstCommentFieldOf(n))}
                  />
                  {tabNetworks
                    .filter((n) => err(firstCommentFieldOf(n)) && activeTab !== n)
                    .map((n) => (
                      <p key={n} className="field-error" role="alert">
                        {t.compose.firstComment.on(nameOf(n))}: {err(firstCommentFieldOf(n))}
                      </p>
                    ))}
                </div>

                <TextField
                  label={t.compose.utmCampaign}
                  hint={t.compose.utmHint}
                  name="utm_campaign"
                  maxLength={200}
                  value={s.utmCampaign}
                  onChange={(e) => set('utmCampaign', e.target.value)}
                  error={err('utm.campaign')}
                />

                <MediaPicker
                  media={s.media}
                  onChange={(update) => setS((x) => ({ ...x, media: update(x.media) }))}
                  error={err('default_image_id') ?? err('image_ids') ?? err('video_id')}
                />

                {(chosen.includes('facebook') ||
                  chosen.includes('linkedin') ||
                  chosen.includes('pinterest') ||
                  chosen.includes('youtube')) && (
                  <fieldset className="destinations">
                    <legend>{t.compose.destinations}</legend>
                    {chosen.includes('facebook') && (
                      <CheckGroup
                        legend={t.compose.facebookPages}
                        options={dests('facebook', 'pages').map((d) => ({ value: d.id, label: d.name }))}
                        selected={s.facebookPageIds}
                        onChange={(v) => set('facebookPageIds', v)}
                        error={err('facebook.facebook_page_ids')}
                      />
                    )}
                    {chosen.includes('linkedin') && dests('linkedin', 'organizations').length > 0 && (
                      <CheckGroup
                        legend={t.compose.linkedinPages}
                        options={dests('linkedin', 'organizations').map((d) => ({ value: d.id, label: d.name }))}
                        selected={s.linkedinPageIds}
                        onChange={(v) => set('linkedinPageIds', v)}
                        error={err('linkedin.linkedin_page_ids')}
                      >
                        {s.linkedinPageIds.length > 0 && (
                          <label className="check">
                            <input
                              type="checkbox"
                              checked={s.linkedinPersonal}
                              onChange={(e) => set('linkedinPersonal', e.target.checked)}
                            />
                            {t.compose.linkedinPersonal}
                          </label>
                        )}
                      </CheckGroup>
                    )}
                    {chosen.includes('pinterest') && (
                      <Field label={t.compose.pinterestBoard} error={err('pinterest.board_id') ?? err('board_id')}>
                        {(c) => (
                          <select
                            {...c}
                            value={s.pinterestBoardId}
                            onChange={(e) => set('pinterestBoardId', e.target.value)}
                          >
                            <option value="">{t.compose.choose}</option>
                            {dests('pinterest', 'boards').map((d) => (
                              <option key={d.id} value={d.id}>
                                {d.name}
                              </option>
                            ))}
                          </select>
                        )}
                      </Field>
                    )}
                    {chosen.includes('youtube') && (
                      <>
                        <TextField
                          label={t.compose.youtubeTitle}
                          value={s.youtubeTitle}
                          onChange={(e) => set('youtubeTitle', e.target.value)}
                          error={err('youtube.youtube_title')}
                        />
                        {dests('youtube', 'playlists').length > 0 && (
                          <Field label={t.compose.youtubePlaylist} error={err('youtube.youtube_playlist_id')}>
                            {(c) => (
                              <select
                                {...c}
                                value={s.youtubePlaylistId}
                                onChange={(e) => set('youtubePlaylistId', e.target.value)}
                              >
                                <option value="">{t.compose.none}</option>
                                {dests('youtube', 'playlists').map((d) => (
                                  <option key={d.id} value={d.id}>
                                    {d.name}
                                  </option>
                                ))}
                              </select>
                            )}
                          </Field>
                        )}
                      </>
                    )}
                  </fieldset>
                )}

                <fieldset className="composer-actions">
                  <legend className="visually-hidden">{t.compose.schedule}</legend>
                  <TextField
                    label={t.compose.scheduleAt(workspace.time_zone)}
                    type="datetime-local"
                    name="scheduled_time"
                    value={when}
                    onChange={(e) => setWhen(e.target.value)}
                    error={whenError ?? err('scheduled_time')}
                  />
                  <label className="check">
                    <input type="checkbox" checked={approvalAt} onChange={(e) => setApprovalAt(e.target.checked)} />{' '}
                    {t.compose.approvalScheduled}
                  </label>
                  <div className="row">
                    <Button
                      variant="secondary"
                      busy={send.isPending && send.variables === 'schedule'}
                      onClick={() => submit('schedule')()}
                    >
                      {t.compose.schedule}
                    </Button>
                    <span className="queue-choice">
                      {queueNames.length > 1 && (
                        <select aria-label={t.compose.queue} value={queue} onChange={(e) => setQueue(e.target.value)}>
                          {queueNames.map((q) => (
                            <option key={q} value={q}>
                              {q}
                            </option>
                          ))}
                        </select>
                      )}
                      <Button busy={send.isPending && send.variables === 'queue'} onClick={() => submit('queue')()}>
                        {t.compose.addToQueue}
                      </Button>
                    </span>
                    <Button busy={send.isPending && send.variables === 'draft'} onClick={() => submit('draft')()}>
                      {t.compose.saveDraft}
                    </Button>
                    <Button busy={send.isPending && send.variables === 'approval'} onClick={() => submit('approval')()}>
                      {t.compose.sendForApproval}
                    </Button>
                    <Button type="submit" variant="primary" busy={send.isPending && send.variables === 'publish'}>
                      {t.compose.publishNow}
                    </Button>
                  </div>
                </fieldset>
                <ErrorText
                  error={send.error}
                  fields={[
                    'platforms',
                    'default_text',
                    'scheduled_time',
                    'facebook.facebook_page_ids',
                    'pinterest.board_id',
                    'youtube.youtube_title',
                    'first_comment',
                    ...tabNetworks.map(textFieldOf),
                    ...tabNetworks.map(firstCommentFieldOf),
                  ]}
                />
                {outcomes.length > 0 && (
                  <section className="outcomes" aria-labelledby={`${tabsId}-results`} role="status">
                    <h2 id={`${tabsId}-results`}>{t.compose.results}</h2>
                    <ul>
                      {outcomes.map((o) => (
                        <li key={`${o.platform}-${o.kind}-${o.message}`} className={o.success ? '' : 'outcome-failed'}>
                          <span className={`badge ${o.success ? 'badge-success' : 'badge-danger'}`}>
                            {o.kind === 'published'
                              ? t.compose.published
                              : o.kind === 'scheduled'
                                ? t.compose.scheduled
                                : o.kind === 'draft'
                                  ? t.compose.draftSaved
                                  : o.kind === 'approval'
                                    ? t.compose.sentForApproval
                                    : t.compose.failed}
                          </span>{' '}
                          {o.platform && <strong>{nameOf(o.platform)}</strong>} {o.message}{' '}
                          {o.permalink && (
                            <a href={o.permalink} target="_blank" rel="noreferrer">
                              {t.compose.view}
                            </a>
                          )}
                        </li>
                      ))}
                    </ul>
                    {queued && (
                      <p>
                        {t.compose.queuedAt(
                          queued.name,
                          new Intl.DateTimeFormat(undefined, {
                            dateStyle: 'full',
                            timeStyle: 'short',
                            timeZone: queued.time_zone,
                          }).format(new Date(queued.slot_time)),
                        )}
                      </p>
                    )}
                  </section>
                )}
              </div>
              <aside className="composer-previews" aria-label={t.compose.previews}>
                <h2>{t.compose.previews}</h2>
                {chosen.map((n) => {
                  const sl = slice(n);
                  return (
                    <Preview
                      key={n}
                      network={n}
                      name={nameOf(n)}
                      account={sl?.connection.display_name ?? undefined}
                      text={publishedTextFor(s, n)}
                      rule={rules[n]?.textRule ?? null}
                      frame={rules[n]?.media.preferred_image}
                      media={s.media}
                    />
                  );
                })}
              </aside>
            </form>
          );
        }}
      </QueryView>
    </>
  );
}
