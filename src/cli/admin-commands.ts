// Administration against the database directly: migrate, user create, key create, workspace plan, mail outbox.
// While an embedded server holds the data directory these fail with its lock message (errors.ts).
import { loadConfig } from '../config.ts';
import { outboxToWire } from '../mail.ts';
import { withContext } from './with-context.ts';

export async function migrate(): Promise<number> {
  await withContext(loadConfig(), async () => console.log('migrations applied'));
  return 0;
}

export async function userCreate(o: {
  email: string;
  password: string;
  name?: string;
  workspace?: string;
  admin?: boolean;
}): Promise<number> {
  const user = await withContext(loadConfig(), (ctx) =>
    ctx.accounts.signup(
      { email: o.email, password: o.password, full_name: o.name, workspace_name: o.workspace },
      { force: true, admin: o.admin ?? false },
    ),
  );
  console.log(JSON.stringify({ id: user.id, email: user.email, is_admin: user.isAdmin }));
  return 0;
}

export async function keyCreate(o: { workspace: string; name?: string; scope: string }): Promise<number> {
  const { row, secret } = await withContext(loadConfig(), (ctx) =>
    ctx.apiKeys.create({ workspaceId: o.workspace, name: o.name ?? null, scope: o.scope, createdBy: null }),
  );
  console.log(JSON.stringify({ id: row.id, scope: row.scope, secret }));
  return 0;
}

export async function workspacePlan(o: { workspace: string; plan: string }): Promise<number> {
  const ws = await withContext(loadConfig(), (ctx) => ctx.workspaces.setPlan(o.workspace, o.plan));
  console.log(JSON.stringify({ workspace_id: ws.id, plan_id: ws.planId }));
  return 0;
}

export async function mailOutbox(): Promise<number> {
  const rows = await withContext(loadConfig(), (ctx) => ctx.mailer.pending(1000));
  if (!rows.length) console.error('herald: no mail waits in the outbox');
  for (const m of rows) console.log(JSON.stringify(outboxToWire(m)));
  return 0;
}
