// `herald serve` and `herald worker`: the long-running processes. They resolve to 'running' and keep the process
// alive until a signal stops them.
import { loadConfig } from '../config.ts';
import { webAppStartupMessage, webAppState } from '../config/web.ts';
import { startServer, stopOnSignals } from '../main.ts';
import { startupSummary, startupWarnings } from '../startup-report.ts';
import { startWorkerProcess, stopWorkerOnSignals } from '../worker-process.ts';

export async function serve(): Promise<'running'> {
  const config = loadConfig();
  const starting = startServer(config);
  stopOnSignals(starting, config.shutdownTimeoutSeconds);
  const running = await starting;
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
  return 'running';
}

export async function worker(): Promise<'running'> {
  const config = loadConfig();
  const w = await startWorkerProcess(config);
  stopWorkerOnSignals(w, config.shutdownTimeoutSeconds);
  return 'running';
}
