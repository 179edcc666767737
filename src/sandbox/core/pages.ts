// HTML of the browser-facing pages: the consent screen and error screens.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;padding:2rem}
main{max-width:32rem;margin:auto;background:#fff;border-radius:12px;padding:1.5rem 2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem}.note{color:#6b7280;font-size:.85rem}ul{padding-left:1.2rem}code{background:#f3f4f6;padding:0 .2rem}
button{font-size:1rem;padding:.5rem 1.25rem;border-radius:6px;border:1px solid #d1d5db;margin-right:.5rem;cursor:pointer}
button[value=approve]{background:#2563eb;color:#fff;border-color:#2563eb}input{font-size:1rem;padding:.3rem}
</style></head><body><main>${body}</main></body></html>`;
}

export interface ConsentView {
  network: string;
  appName: string;
  scopes: string[];
  action: string;
  pendingId: string;
  userKey: string;
  /** Who the client app says the request is for (e.g. its workspace). */
  requestedFor?: string | null;
}

export function consentPage(view: ConsentView): string {
  const scopes = view.scopes.length
    ? `<ul>${view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
    : '<p>No specific permissions (basic profile only).</p>';
  return layout(
    `${view.network} — authorize ${view.appName}`,
    `<h1>${escapeHtml(view.network)} sandbox</h1>
<p><strong>${escapeHtml(view.appName)}</strong> wants to access your ${escapeHtml(view.network)} account.</p>
${view.requestedFor ? `<p data-requested-for>It will be connected to: <strong>${escapeHtml(view.requestedFor)}</strong>. If you did not start this, choose Deny.</p>\n` : ''}<p>Requested permissions:</p>${scopes}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="pending" value="${escapeHtml(view.pendingId)}">
<p><label>Sandbox user: <input name="user" value="${escapeHtml(view.userKey)}"></label></p>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="note">This is Herald's platform simulator, not the real ${escapeHtml(view.network)}.</p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
