// Recording a voice message in the browser (MediaRecorder; WebM/Opus in Chromium and Firefox) for the transcribe route.
import { useCallback, useRef, useState } from 'react';

export function useRecorder() {
  const [recording, setRecording] = useState(false);
  const [error, setError] = useState<unknown>();
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const supported = typeof window !== 'undefined' && 'MediaRecorder' in window && !!navigator.mediaDevices;

  const start = useCallback(() => {
    setError(undefined);
    navigator.mediaDevices.getUserMedia({ audio: true }).then(
      (stream) => {
        const r = new MediaRecorder(stream);
        chunks.current = [];
        r.ondataavailable = (e) => {
          if (e.data.size > 0) chunks.current.push(e.data);
        };
        r.start();
        recorder.current = r;
        setRecording(true);
      },
      (err: unknown) => setError(err),
    );
  }, []);

  /** Stops and gives the recording (null when nothing was recorded). */
  const stop = useCallback(
    () =>
      new Promise<Blob | null>((resolve) => {
        const r = recorder.current;
        if (!r) return resolve(null);
        r.onstop = () => {
          for (const track of r.stream.getTracks()) track.stop();
          recorder.current = null;
          setRecording(false);
          resolve(chunks.current.length ? new Blob(chunks.current, { type: r.mimeType || 'audio/webm' }) : null);
        };
        r.stop();
      }),
    [],
  );

  return { supported, recording, error, start, stop };
}
