// Picking the post's media: upload files (with progress; large ones in chunks) or choose from the library.
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api, must } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { useWorkspace } from '../../app/session.tsx';
import type { PickedMedia } from '../../compose/post.ts';
import { uploadFile } from '../../compose/upload.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Empty, QueryView } from '../../ui/States.tsx';

interface Upload {
  key: number;
  name: string;
  progress: number;
  error?: string;
}

let nextKey = 1;

export function MediaPicker({
  media,
  onChange,
  error,
}: {
  media: PickedMedia[];
  onChange: (update: (m: PickedMedia[]) => PickedMedia[]) => void;
  error?: string | undefined;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [library, setLibrary] = useState(false);

  const patch = (key: number, p: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...p } : u)));

  const upload = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const key = nextKey++;
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      uploadFile(file, { onProgress: (f) => patch(key, { progress: f }) }).then(
        (rec) => {
          setUploads((list) => list.filter((u) => u.key !== key));
          onChange((m) => [
            ...m,
            { media_id: rec.media_id, media_type: rec.media_type, public_url: rec.public_url, filename: rec.filename },
          ]);
        },
        (err: unknown) => patch(key, { error: errorMessage(err) }),
      );
    }
    if (input.current) input.current.value = '';
  };

  return (
    <fieldset className="media-picker">
      <legend>{t.compose.media}</legend>
      {media.length > 0 && (
        <ul className="media-chosen">
          {media.map((m) => (
            <li key={m.media_id}>
              {m.media_type === 'video' ? (
                <video src={m.public_url} muted preload="metadata" aria-label={m.filename} />
              ) : (
                <img src={m.public_url} alt={m.filename} />
              )}
              <Button
                variant="ghost"
                aria-label={t.compose.remove(m.filename)}
                onClick={() => onChange((list) => list.filter((x) => x.media_id !== m.media_id))}
              >
                ✕
              </Button>
            </li>
          ))}
        </ul>
      )}
      {uploads.map((u) => (
        <div key={u.key} className="upload-row">
          <label htmlFor={`upload-${u.key}`}>
            {u.error ? t.compose.uploadFailed(u.name) : t.compose.uploading(u.name)}
          </label>
          {u.error ? (
            <p className="field-error" role="alert">
              {u.error}
            </p>
          ) : (
            <progress id={`upload-${u.key}`} max={1} value={u.progress}>
              {Math.round(u.progress * 100)}%
            </progress>
          )}
          {u.error && (
            <Button variant="ghost" onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>
              {t.common.close}
            </Button>
          )}
        </div>
      ))}
      <div className="row">
        <input
          ref={input}
          id={inputId}
          className="visually-hidden file-input"
          type="file"
          accept="image/*,video/*"
          multiple
          onChange={(e) => upload(e.target.files)}
        />
        <label htmlFor={inputId} className="btn btn-secondary file-button">
          {t.compose.addMedia}
        </label>
        <Button onClick={() => setLibrary(true)}>{t.compose.fromLibrary}</Button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <LibraryDialog
        open={library}
        onClose={() => setLibrary(false)}
        chosen={media}
        onPick={(m) => {
          onChange((list) => (list.some((x) => x.media_id === m.media_id) ? list : [...list, m]));
        }}
      />
    </fieldset>
  );
}

function LibraryDialog({
  open,
  onClose,
  chosen,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  chosen: PickedMedia[];
  onPick: (m: PickedMedia) => void;
}) {
  const { workspace } = useWorkspace();
  const list = useQuery({
    queryKey: ['media', workspace.id, 'picker'],
    queryFn: () => must(api.GET('/media', { params: { query: { limit: 50 } } })),
    enabled: open,
  });
  return (
    <Dialog open={open} title={t.compose.libraryTitle} onClose={onClose}>
      <QueryView query={list}>
        {(data) =>
          data.media.length === 0 ? (
            <Empty title={t.compose.libraryEmpty} />
          ) : (
            <ul className="library-grid">
              {data.media.map((m) => {
                const used = chosen.some((c) => c.media_id === m.media_id);
                return (
                  <li key={m.media_id}>
                    {m.media_type === 'video' ? (
                      <video src={m.public_url} muted preload="metadata" aria-label={m.filename} />
                    ) : (
                      <img src={m.public_url} alt={m.original_filename ?? m.filename} loading="lazy" />
                    )}
                    <Button
                      disabled={used}
                      aria-label={`${t.compose.use} ${m.original_filename ?? m.filename}`}
                      onClick={() =>
                        onPick({
                          media_id: m.media_id,
                          media_type: m.media_type,
                          public_url: m.public_url,
                          filename: m.original_filename ?? m.filename,
                        })
                      }
                    >
                      {t.compose.use}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryView>
    </Dialog>
  );
}
