// The sign-in pages of the OAuth authorization server: plain server-rendered HTML forms, no script.
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}' +
  'label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}' +
  'button{margin-top:1rem;padding:.5rem 1.2rem}.error{color:#b00020}.ws{display:block;margin:.4rem 0}';

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

export function loginPage(p: {
  action: string;
  uid: string;
  csrf: string;
  client: string;
  email?: string;
  error?: string;
}): string {
  return layout(
    'Sign in to Herald',
    `<h1>Sign in to Herald</h1><p><strong>${esc(p.client)}</strong> asks to use one of your Herald workspaces.</p>` +
      (p.error ? `<p class="error" role="alert">${esc(p.error)}</p>` : '') +
      `<form method="post" action="${esc(p.action)}">${hidden('uid', p.uid)}${hidden('csrf', p.csrf)}` +
      `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(p.email ?? '')}">` +
      `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>` +
      `<button type="submit">Sign in</button></form>`,
  );
}

export function workspacePage(p: {
  action: string;
  uid: string;
  csrf: string;
  client: string;
  workspaces: { id: string; name: string }[];
  error?: string;
}): string {
  const options = p.workspaces
    .map(
      (w, i) =>
        `<label class="ws"><input type="radio" name="workspace_id" value="${esc(w.id)}"${i === 0 ? ' checked' : ''} required> ${esc(w.name)}</label>`,
    )
    .join('');
  return layout(
    'Choose a workspace',
    `<h1>Choose a workspace</h1><p><strong>${esc(p.client)}</strong> will act in the workspace you choose, with your rights there, until you disconnect it.</p>` +
      (p.error ? `<p class="error" role="alert">${esc(p.error)}</p>` : '') +
      (p.workspaces.length
        ? `<form method="post" action="${esc(p.action)}">${hidden('uid', p.uid)}${hidden('csrf', p.csrf)}${options}<button type="submit">Allow</button></form>`
        : '<p>You are not a member of any workspace.</p>'),
  );
}

export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`);
}
