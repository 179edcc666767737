// The page a browser lands on after a network's consent screen. It returns to the web app's Connections page
// (same origin) with the result in the query, after a second, and links there for browsers that do not follow.
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function callbackPage(r: {
  ok: boolean;
  platform: string;
  message: string;
  workspaceName?: string | undefined;
}): string {
  const title = r.ok ? 'Connected' : 'Connection failed';
  const back = `/connections?${new URLSearchParams({ platform: r.platform, status: r.ok ? 'success' : 'error', message: r.message })}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="1; url=${escapeHtml(back)}">
<title>Herald · ${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem;color:${r.ok ? '#1a7f37' : '#cf222e'}}</style></head>
<body><h1>${escapeHtml(title)}</h1><p data-status="${r.ok ? 'success' : 'error'}" data-platform="${escapeHtml(r.platform)}">${escapeHtml(r.message)}</p>
${r.workspaceName === undefined ? '' : `<p data-workspace>Herald workspace: <strong>${escapeHtml(r.workspaceName)}</strong>. If this is not your workspace, tell its owner: they can disconnect the account, and you can revoke Herald's access in your account's settings at the network.</p>\n`}<p><a href="${escapeHtml(back)}" data-return>Return to Herald</a></p></body></html>`;
}
