// The command line: `herald <command> [options]`, parsed by commander. Each command's module is imported only when
// that command runs, so `herald --help` or `herald version` loads no server code and `serve` loads no backup code.
// A command resolves to an exit code, or to 'running' for the long-running processes (serve, worker).
import { Command, CommanderError } from 'commander';
import { heraldVersion } from './version.ts';

export type CommandResult = number | 'running';

export { heraldVersion };

export function buildProgram(run: (action: () => Promise<CommandResult>) => Promise<void>): Command {
  const program = new Command('herald')
    .description(
      'Herald: self-hosted social publishing. Configuration comes from the environment (docs/configuration.md).',
    )
    .version(heraldVersion(), '-v, --version', 'print the version')
    .showHelpAfterError('(run `herald --help` for the commands)')
    .exitOverride();

  program
    .command('serve')
    .description('start the HTTP server (what `herald` alone does)')
    .action(() => run(async () => (await import('./server-commands.ts')).serve()));
  program
    .command('worker')
    .description('publish scheduled posts only (PostgreSQL; several may run)')
    .action(() => run(async () => (await import('./server-commands.ts')).worker()));
  program
    .command('migrate')
    .description('apply database migrations and exit')
    .action(() => run(async () => (await import('./admin-commands.ts')).migrate()));
  program
    .command('doctor')
    .description('check this configuration (URLs, networks, storage, database, mail, programs) and say how to fix it')
    .option('--json', 'print the results as JSON (exit code 1 when a check fails)')
    .action((o) => run(async () => (await import('./doctor.ts')).doctor(o)));
  program
    .command('version')
    .description('print the version')
    .action(() =>
      run(async () => {
        console.log(heraldVersion());
        return 0;
      }),
    );

  program
    .command('post')
    .description('publish, schedule or draft a post on a running Herald (HERALD_URL, HERALD_API_KEY)')
    .argument('<text>', 'the post text')
    .requiredOption('--to <networks>', 'comma-separated networks, e.g. linkedin,bluesky')
    .option('--image <file>', 'upload this image and post it')
    .option('--video <file>', 'upload this video and post it')
    .option('--at <time>', 'schedule for this time (ISO 8601, e.g. 2026-12-01T09:00:00+01:00)')
    .option('--queue <name>', 'put it in the next free slot of this queue (`default` always exists)')
    .option('--draft', 'save as a draft')
    .option('--json', "print the server's answer as JSON")
    .action((text: string, o) => run(async () => (await import('./client-commands.ts')).post(text, o)));
  program
    .command('posts')
    .description('list scheduled and published posts of a running Herald (HERALD_URL, HERALD_API_KEY)')
    .option('--status <status>', 'scheduled, publishing, published, failed or cancelled')
    .option('--limit <n>', 'how many (default 50)')
    .option('--json', 'print JSON')
    .action((o) => run(async () => (await import('./client-commands.ts')).posts(o)));
  program
    .command('connections')
    .description("list the workspace's networks and whether each is connected (HERALD_URL, HERALD_API_KEY)")
    .option('--json', 'print JSON')
    .action((o) => run(async () => (await import('./client-commands.ts')).connections(o)));
  program
    .command('backup')
    .description('write one archive of the database, media and generated secrets (docs/backup.md)')
    .option('--out <file>', 'where to write it; - for stdout (default: herald-backup-<UTC time>.tar.gz here)')
    .option('--media <mode>', 'S3 media: include the objects or only list them (include|list)', 'include')
    .action((o) => run(async () => (await import('./backup-commands.ts')).backup(o)));
  program
    .command('restore')
    .description('restore a backup into an empty data directory or database, checking it first')
    .argument('<file>', 'the archive written by herald backup')
    .option('--force', 'replace what the target already holds')
    .action((file: string, o) => run(async () => (await import('./backup-commands.ts')).restore(file, o)));
  const db = program.command('db').description('the database');
  db.command('move')
    .description('copy the embedded database into an empty PostgreSQL and print the new configuration')
    .requiredOption('--to <url>', 'the PostgreSQL URL (postgres://user:password@host:5432/db)')
    .action((o) => run(async () => (await import('./backup-commands.ts')).dbMove(o)));

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description('create a user (and a workspace unless it joins one)')
    .requiredOption('--email <email>', 'the login email')
    .requiredOption('--password <password>', 'the password')
    .option('--name <name>', 'full name')
    .option('--workspace <name>', 'name of the workspace to create')
    .option('--admin', 'make the user an administrator')
    .action((o) => run(async () => (await import('./admin-commands.ts')).userCreate(o)));

  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .description('create an API key; prints the secret once')
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--name <name>', 'a name to recognise the key by')
    .option('--scope <scope>', 'full, or a comma-separated list of networks', 'full')
    .action((o) => run(async () => (await import('./admin-commands.ts')).keyCreate(o)));

  const workspace = program.command('workspace').description('manage workspaces');
  workspace
    .command('plan')
    .description("set a workspace's plan")
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--plan <plan>', 'plan id')
    .action((o) => run(async () => (await import('./admin-commands.ts')).workspacePlan(o)));

  const mail = program.command('mail').description('mail kept while no SMTP server is configured');
  mail
    .command('outbox')
    .description('list the mails waiting in the outbox')
    .action(() => run(async () => (await import('./admin-commands.ts')).mailOutbox()));

  return program;
}

export { CommanderError };
