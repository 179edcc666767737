// How a command's failure reaches the terminal: one line starting with `herald:`, never a stack for a mistake the
// user can fix (a bad option, a bad setting, a port in use, a locked data directory, a package the setting needs).
import { ConfigError } from '../config.ts';
import { SchemaTooNewError } from '../db/client.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { listenFailure } from '../main.ts';
import { MissingPackageError } from '../optional-packages.ts';

/** A mistake in how the command was called. */
export class UsageError extends Error {}

/** A command that ran and failed for a reason it has already put in words (its message is printed as it is). */
export class CommandFailure extends Error {}

export function failureText(err: unknown): string {
  if (err instanceof CommandFailure) return err.message;
  if (
    err instanceof UsageError ||
    err instanceof ConfigError ||
    err instanceof SchemaTooNewError ||
    err instanceof MissingPackageError
  )
    return `herald: ${err.message}`;
  const listen = listenFailure(err);
  if (listen) return `herald: ${listen}`;
  if (err instanceof DataDirLockedError) {
    return `herald: ${err.message}\nWhile an embedded server runs, use its admin routes instead (POST /admin/users, POST /admin/workspaces/{id}/api-keys, PUT /admin/workspaces/{id}/plan) with an administrator's token.`;
  }
  return `herald: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}
