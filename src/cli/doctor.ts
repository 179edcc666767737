// `herald doctor [--json]`: checks this configuration before users hit it, prints a table with a fix for each
// problem, and exits 1 when a check fails (warnings do not fail). The checks are in doctor-checks.ts.
import { ConfigError, loadConfig } from '../config.ts';
import {
  type CheckResult,
  checkAssistantUrls,
  checkDatabase,
  checkNetworks,
  checkOptionalPackages,
  checkPrograms,
  checkPublicUrl,
  checkSmtp,
  checkStorage,
} from './doctor-checks.ts';

const MARK: Record<CheckResult['status'], string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: '-' };

export async function runChecks(): Promise<CheckResult[]> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return [
      {
        check: 'configuration',
        status: 'fail',
        detail: err.message,
        fix: 'fix the variables named above (docs/configuration.md)',
      },
    ];
  }
  const [storage, database, smtp, programs] = await Promise.all([
    checkStorage(config),
    checkDatabase(config),
    checkSmtp(config),
    checkPrograms(config),
  ]);
  return [
    { check: 'configuration', status: 'ok', detail: 'every variable parses' },
    ...checkPublicUrl(config),
    ...database,
    storage,
    smtp,
    ...programs,
    ...checkOptionalPackages(config),
    ...checkNetworks(config),
    ...checkAssistantUrls(config),
  ];
}

export function formatTable(results: readonly CheckResult[]): string {
  const width = Math.max(...results.map((r) => r.check.length));
  const lines = results.flatMap((r) => [
    `${MARK[r.status].padEnd(4)}  ${r.check.padEnd(width)}  ${r.detail}`,
    ...(r.fix ? [`${' '.repeat(6 + width)}  fix: ${r.fix}`] : []),
  ]);
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  lines.push('', failed ? `${failed} check(s) failed, ${warned} warning(s)` : `no failures, ${warned} warning(s)`);
  return lines.join('\n');
}

export async function doctor(o: { json?: boolean }): Promise<number> {
  const results = await runChecks();
  console.log(
    o.json ? JSON.stringify({ ok: !results.some((r) => r.status === 'fail'), checks: results }) : formatTable(results),
  );
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}
