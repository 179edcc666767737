// The commands behind `herald serve | worker | migrate | user create | key create | workspace plan | mail outbox`
// (entry point: cli.ts).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createContext, createLogger } from './context.ts';
import { DataDirLockedError } from './db/lock.ts';
import { outboxToWire } from './mail.ts';
import { listenFailure, startServer, stopOnSignals } from './main.ts';
import { startupSummary, startupWarnings } from './startup-report.ts';
import { webAppStartupMessage, webAppState } from './config/web.ts';
import { startWorkerProcess, stopWorkerOnSignals } from './worker-process.ts';

const USAGE = `Usage: herald <command>

  serve                                   start the HTTP server (default)
  migrate                                 apply database migrations and exit
  worker                                  publish scheduled posts only (PostgreSQL; several may run)
  user create --email E --password P [--name N] [--workspace W] [--admin]
  key create --workspace ID [--name N] [--scope S]   prints the secret once
  workspace plan --workspace ID --plan PLAN
  mail outbox                             list the mails waiting in the outbox (no SMTP configured)

Configuration comes from the environment: see docs/configuration.md.`;

async function withContext<T>(
  config: Config,
  fn: (ctx: Awaited<ReturnType<typeof createContext>>) => Promise<T>,
): Promise<T> {
  const ctx = await createContext(config, { logger: createLogger({ ...config, logLevel: 'warn' }) });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', sub, ...rest] = argv;
  if (command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  const { values } = parseArgs({
    args: command === 'serve' || command === 'migrate' ? (sub ? [sub, ...rest] : []) : rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      workspace: { type: 'string' },
      scope: { type: 'string' },
      plan: { type: 'string' },
      admin: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  switch (`${command}${sub && command !== 'serve' && command !== 'migrate' ? ` ${sub}` : ''}`) {
    case 'serve': {
      const running = await startServer(config);
      stopOnSignals(running, config.shutdownTimeoutSeconds);
      const log = running.ctx.logger;
      log.info(
        {
          startup: {
            url: running.url,
            database: running.ctx.database.kind,
            publicUrl: config.publicUrl,
            sandbox: config.sandbox,
            mail: Boolean(config.smtpUrl),
            signup: config.signup,
          },
        },
        startupSummary(config, running),
      );
      for (const warning of startupWarnings(config)) log.warn(warning);
      const web = webAppStartupMessage(webAppState(config));
      if (web) log.warn(web);
      return -1;
    }
    case 'worker': {
      const w = await startWorkerProcess(config);
      stopWorkerOnSignals(w, config.shutdownTimeoutSeconds);
      return -1;
    }
    case 'migrate':
      await withContext(config, async () => console.log('migrations applied'));
      return 0;
    case 'user create': {
      if (!values.email || !values.password) throw new UsageError('user create needs --email and --password');
      const user = await withContext(config, (ctx) =>
        ctx.accounts.signup(
          {
            email: values.email!,
            password: values.password!,
            full_name: values.name,
            workspace_name: values.workspace,
          },
          { force: true, admin: values.admin ?? false },
        ),
      );
      console.log(JSON.stringify({ id: user.id, email: user.email, is_admin: user.isAdmin }));
      return 0;
    }
    case 'key create': {
      if (!values.workspace) throw new UsageError('key create needs --workspace');
      const { row, secret } = await withContext(config, (ctx) =>
        ctx.apiKeys.create({
          workspaceId: values.workspace!,
          name: values.name ?? null,
          scope: values.scope ?? 'full',
          createdBy: null,
        }),
      );
      console.log(JSON.stringify({ id: row.id, scope: row.scope, secret }));
      return 0;
    }
    case 'workspace plan': {
      if (!values.workspace || !values.plan) throw new UsageError('workspace plan needs --workspace and --plan');
      const ws = await withContext(config, (ctx) => ctx.workspaces.setPlan(values.workspace!, values.plan!));
      console.log(JSON.stringify({ workspace_id: ws.id, plan_id: ws.planId }));
      return 0;
    }
    case 'mail outbox': {
      const rows = await withContext(config, (ctx) => ctx.mailer.pending(1000));
      if (!rows.length) console.error('herald: no mail waits in the outbox');
      for (const m of rows) console.log(JSON.stringify(outboxToWire(m)));
      return 0;
    }
    default:
      throw new UsageError(`unknown command '${argv.join(' ')}'`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`herald: ${err.message}\n\n${USAGE}`);
    } else if (err instanceof ConfigError) {
      console.error(`herald: ${err.message}`);
    } else if (listenFailure(err)) {
      console.error(`herald: ${listenFailure(err)}`);
    } else if (err instanceof DataDirLockedError) {
      console.error(
        `herald: ${err.message}\nWhile an embedded server runs, use its admin routes instead (POST /admin/users, POST /admin/workspaces/{id}/api-keys, PUT /admin/workspaces/{id}/plan) with an administrator's token.`,
      );
    } else {
      console.error('herald:', err instanceof Error ? (err.stack ?? err.message) : err);
    }
    process.exit(1);
  },
);
