// An exclusive lock file for the embedded database directory.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export interface DirLock {
  release(): void;
}

export class DataDirLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDirLock(path: string): DirLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isFinite(holder) && holder !== process.pid && alive(holder)) {
        throw new DataDirLockedError(
          `The embedded database at ${path.replace(/pglite\.lock$/, '')} is in use by another Herald process (pid ${holder}). ` +
            'Embedded PGlite allows one process; stop the other one, or set DATABASE_URL to use PostgreSQL for several processes.',
        );
      }
      // The holder is gone (crash or SIGKILL): the lock is stale.
      unlinkSync(path);
    }
  }
  throw new DataDirLockedError(`Could not acquire the data directory lock ${path}`);
}
