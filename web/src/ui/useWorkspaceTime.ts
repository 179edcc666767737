// Times shown as the workspace sees them: in its time zone (`workspace.time_zone`), in the browser's language.
import { useMemo } from 'react';
import { useWorkspace } from '../app/session.tsx';

export function useWorkspaceTime() {
  const { workspace } = useWorkspace();
  const timeZone = workspace.time_zone;
  return useMemo(() => {
    const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone });
    const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone });
    return {
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      date: (iso: string) => date.format(new Date(iso)),
    };
  }, [timeZone]);
}
