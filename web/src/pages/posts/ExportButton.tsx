// The Posts page's export: the workspace's scheduled, published and draft posts as a CSV file in the bulk import's
// format (GET /unified/bulk/export), downloaded by the browser. A plan without bulk scheduling gets the API's message.
import { useState } from 'react';
import { appHeaders } from '../../api/client.ts';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';

export function ExportButton({ onError }: { onError: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const res = await fetch('/unified/bulk/export?format=csv', { headers: await appHeaders('GET') });
      if (!res.ok) {
        const body = (await res.json().catch(() => undefined)) as { detail?: unknown } | undefined;
        const detail = body?.detail as { message?: string } | string | undefined;
        onError(typeof detail === 'string' ? detail : (detail?.message ?? t.posts.exportFailed));
        return;
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = 'herald-posts.csv';
      a.click();
      URL.revokeObjectURL(url);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button busy={busy} onClick={() => void download()}>
      {t.posts.export}
    </Button>
  );
}
