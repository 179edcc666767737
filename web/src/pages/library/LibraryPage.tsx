// The media library: the workspace's images and videos (GET /media), filtered by type and upload date, uploaded
// with progress, each one's details and deletion.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { useWorkspace } from '../../app/session.tsx';
import { uploadFile } from '../../compose/upload.ts';
import { errorMessage } from '../../api/errors.ts';
import type { paths } from '../../api/schema.d.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { Empty, ErrorState, ErrorText, Loading } from '../../ui/States.tsx';
import { useWorkspaceTime } from '../../ui/useWorkspaceTime.ts';
import { type DateFilter, formatBytes, formatDimensions, formatDuration, withinDays } from './format.ts';
import '../../styles/pages.css';

type Media = paths['/media']['get']['responses'][200]['content']['application/json']['media'][number];
type TypeFilter = 'all' | 'image' | 'video';

const PAGE = 48;
const mediaKey = ['media'] as const;

interface UploadRow {
  id: number;
  name: string;
  loaded: number;
  total: number;
  error?: unknown;
  done?: boolean;
}

function useUploads(onUploaded: () => void) {
  const [rows, setRows] = useState<UploadRow[]>([]);
  const next = useRef(0);
  const update = (id: number, patch: Partial<UploadRow>) =>
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const start = (files: FileList) => {
    for (const file of Array.from(files)) {
      const id = next.current++;
      setRows((all) => [...all, { id, name: file.name, loaded: 0, total: file.size }]);
      uploadFile(file, { onProgress: (f) => update(id, { loaded: Math.round(f * file.size) }) }).then(
        () => {
          update(id, { done: true, loaded: file.size });
          onUploaded();
        },
        (error: unknown) => update(id, { error }),
      );
    }
  };
  const clear = () => setRows((all) => all.filter((r) => !r.done && !r.error));
  return { rows, start, clear };
}

function UploadList({ rows, onClear }: { rows: UploadRow[]; onClear: () => void }) {
  if (rows.length === 0) return null;
  const finished = rows.some((r) => r.done || r.error);
  return (
    <section className="upload-list" aria-label={t.library.uploads}>
      <ul>
        {rows.map((r) => (
          <li key={r.id}>
            <span className="upload-name">{r.name}</span>
            <progress
              max={r.total || 1}
              value={r.loaded}
              aria-label={t.library.uploadProgress(r.name)}
              aria-valuetext={`${Math.round((100 * r.loaded) / (r.total || 1))} %`}
            />
            <span className="upload-status" aria-live="polite">
              {r.error
                ? errorMessage(r.error)
                : r.done
                  ? t.library.uploaded
                  : `${Math.round((100 * r.loaded) / (r.total || 1))} %`}
            </span>
          </li>
        ))}
      </ul>
      {finished && (
        <Button variant="ghost" onClick={onClear}>
          {t.library.clearFinished}
        </Button>
      )}
    </section>
  );
}

function Details({ media, onClose }: { media: Media; onClose: () => void }) {
  const time = useWorkspaceTime();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/media/{id}', { params: { path: { id: media.media_id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mediaKey });
      onClose();
    },
  });
  const dims = formatDimensions(media.width, media.height);
  const facts: [string, string | null][] = [
    [t.library.fields.name, media.original_filename ?? media.filename],
    [t.library.fields.type, `${t.library.types[media.media_type === 'video' ? 'video' : 'image']} (${media.format})`],
    [t.library.fields.size, formatBytes(media.file_size)],
    [t.library.fields.dimensions, dims],
    [t.library.fields.duration, media.duration != null ? formatDuration(media.duration) : null],
    [t.library.fields.codecs, [media.video_codec, media.audio_codec].filter(Boolean).join(' / ') || null],
    [t.library.fields.uploaded, time.dateTime(media.uploaded_at)],
    [t.library.fields.network, media.platform],
    [t.library.fields.id, media.media_id],
  ];
  const rows = facts.filter((f): f is [string, string] => f[1] !== null);
  return (
    <Dialog
      open
      title={media.original_filename ?? media.filename}
      onClose={onClose}
      actions={
        <>
          <ConfirmButton
            label={t.common.delete}
            confirmLabel={t.library.confirmDelete}
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
          <Button onClick={onClose}>{t.common.close}</Button>
        </>
      }
    >
      <div className="media-details">
        <div className="media-preview">
          {media.media_type === 'video' ? (
            // biome-ignore lint/a11y/useMediaCaption: the library's videos are the user's own uploads, without captions
            <video src={media.public_url} controls preload="metadata" />
          ) : (
            <img src={media.public_url} alt={media.original_filename ?? media.filename} />
          )}
        </div>
        <dl className="media-facts">
          {rows.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <p>
          <a href={media.public_url} target="_blank" rel="noreferrer">
            {t.library.openOriginal}
          </a>
        </p>
      </div>
      <ErrorText error={remove.error} />
    </Dialog>
  );
}

function Tile({ media, onOpen }: { media: Media; onOpen: () => void }) {
  const name = media.original_filename ?? media.filename;
  return (
    <li className="media-tile">
      <button type="button" onClick={onOpen} aria-haspopup="dialog">
        {media.media_type === 'video' ? (
          <span className="media-thumb media-thumb-video">
            <video src={`${media.public_url}#t=0.1`} preload="metadata" muted aria-hidden="true" tabIndex={-1} />
            <span className="media-badge">
              {t.library.types.video}
              {media.duration != null ? ` · ${formatDuration(media.duration)}` : ''}
            </span>
          </span>
        ) : (
          <span className="media-thumb">
            <img src={media.public_url} alt="" loading="lazy" />
          </span>
        )}
        <span className="media-caption">
          <span className="media-name">{name}</span>
          <span className="media-meta">{formatBytes(media.file_size)}</span>
        </span>
      </button>
    </li>
  );
}

function LibraryView() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [type, setType] = useState<TypeFilter>('all');
  const [date, setDate] = useState<DateFilter>('all');
  const [open, setOpen] = useState<Media | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const typeId = useId();
  const dateId = useId();
  const query = useInfiniteQuery({
    queryKey: [...mediaKey, workspace.id, type],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/media', {
          params: { query: { limit: PAGE, offset: pageParam, ...(type === 'all' ? {} : { media_type: type }) } },
        }),
      ),
    getNextPageParam: (last) => (last.offset + last.count < last.total ? last.offset + last.count : undefined),
  });
  const uploads = useUploads(() => void queryClient.invalidateQueries({ queryKey: mediaKey }));
  const all = query.data?.pages.flatMap((p) => p.media) ?? [];
  const shown = withinDays(all, date, Date.now());
  const total = query.data?.pages[0]?.total ?? 0;

  return (
    <>
      <PageHeader title={t.library.title}>
        <Button variant="primary" onClick={() => fileInput.current?.click()}>
          {t.library.upload}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="image/*,video/*"
          multiple
          hidden
          aria-label={t.library.upload}
          onChange={(e) => {
            if (e.target.files?.length) uploads.start(e.target.files);
            e.target.value = '';
          }}
        />
      </PageHeader>
      <fieldset className="filters">
        <legend className="visually-hidden">{t.library.filters}</legend>
        <div className="field field-inline">
          <label htmlFor={typeId}>{t.library.typeFilter}</label>
          <select id={typeId} value={type} onChange={(e) => setType(e.target.value as TypeFilter)}>
            <option value="all">{t.library.types.all}</option>
            <option value="image">{t.library.types.image}</option>
            <option value="video">{t.library.types.video}</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={dateId}>{t.library.dateFilter}</label>
          <select id={dateId} value={date} onChange={(e) => setDate(e.target.value as DateFilter)}>
            <option value="all">{t.library.dates.all}</option>
            <option value="7">{t.library.dates.days(7)}</option>
            <option value="30">{t.library.dates.days(30)}</option>
            <option value="90">{t.library.dates.days(90)}</option>
          </select>
        </div>
        {query.data && <p className="filters-count">{t.library.count(shown.length, total)}</p>}
      </fieldset>
      <UploadList rows={uploads.rows} onClear={uploads.clear} />
      {query.isPending ? (
        <Loading />
      ) : query.error ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : shown.length === 0 ? (
        <Empty title={all.length === 0 && type === 'all' ? t.library.empty : t.library.emptyFiltered}>
          {all.length === 0 && type === 'all' && <p>{t.library.emptyHint}</p>}
        </Empty>
      ) : (
        <ul className="media-grid" aria-label={t.library.title}>
          {shown.map((m) => (
            <Tile key={m.media_id} media={m} onOpen={() => setOpen(m)} />
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <div className="load-more">
          <Button busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t.library.loadMore}
          </Button>
        </div>
      )}
      {open && <Details media={open} onClose={() => setOpen(null)} />}
    </>
  );
}

/** A page of its own per workspace: switching workspaces starts it afresh (what was read, typed or sent here stays with its workspace). */
export default function LibraryPage() {
  const { workspace } = useWorkspace();
  return <LibraryView key={workspace.id} />;
}
