// `herald backup`, `herald restore` and `herald db move` (docs/backup.md): what they print around src/cli/backup/.
import { statSync } from 'node:fs';
import { loadConfig } from '../config.ts';
import { UsageError } from './errors.ts';
import { runBackup } from './backup/backup.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** Peak resident memory of this process so far (Linux reports maxRSS in KiB). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

export async function backup(o: { out?: string; media?: string }): Promise<number> {
  if (o.media !== undefined && o.media !== 'include' && o.media !== 'list') {
    throw new UsageError(`--media must be include or list, not ${o.media}`);
  }
  const { file, manifest, heldMs } = await runBackup(loadConfig(), { out: o.out, media: o.media });
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  const size = file === '-' ? '' : `, ${mb(statSync(file).size)}`;
  // stdout may be the archive itself: the report goes to stderr.
  console.error(
    `herald: backup written to ${file === '-' ? 'stdout' : file}${size}: ${manifest.database.kind} database at ` +
      `schema version ${manifest.schema_version} (${rows} rows in ${Object.keys(manifest.tables).length} tables), ` +
      `${manifest.media.objects} media object(s) ${manifest.media.mode === 'list' ? 'listed' : 'included'}, ` +
      `secrets ${manifest.secrets === 'file' ? 'included' : 'from settings (not in the archive: keep them yourself)'}; ` +
      (heldMs !== undefined ? `the running server held still ${heldMs} ms for the copy; ` : '') +
      `peak memory ${mb(peakRss())}`,
  );
  return 0;
}

export async function restore(file: string, o: { force?: boolean }): Promise<number> {
  const { runRestore } = await import('./backup/restore.ts');
  const { manifest, tables } = await runRestore(loadConfig(), file, { force: o.force });
  const rows = Object.values(tables).reduce((a, b) => a + b, 0);
  console.log(
    `herald: restored the backup of ${manifest.created_at} (Herald ${manifest.herald_version}, schema version ` +
      `${manifest.schema_version}): ${rows} rows checked against the manifest, ${manifest.media.objects} media ` +
      `object(s). Start Herald (herald serve): it applies any newer migrations.`,
  );
  if (manifest.secrets === 'settings') {
    console.log(
      'herald: the backed-up install took its keys from HERALD_JWT_SECRET and HERALD_ENCRYPTION_KEY: set the same ones.',
    );
  }
  if (manifest.media.mode === 'list') {
    console.log('herald: the media objects were only listed (media-list.json): they stay in the S3 bucket.');
  }
  return 0;
}

export async function dbMove(o: { to: string }): Promise<number> {
  const { runMove } = await import('./backup/move.ts');
  const result = await runMove(loadConfig(), o.to, { log: (line) => console.error(`herald: ${line}`) });
  for (const line of result.instructions) console.log(line);
  return 0;
}
