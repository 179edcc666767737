// Deleting a workspace. The database side is one transaction: the workspace row is locked (so no
// upload, post or connection can be added meanwhile), its stored files are written to a to-do list,
// and the row is deleted, which cascades to everything it owns (members, keys, invitations,
// connections, posts, drafts, scheduled posts, media rows, upload sessions, credits, mail). The
// files are removed after the commit and crossed off one by one; whatever a crash leaves on the
// list is removed by the next sweep. So there is never half a workspace, and no file outlives it.
import type { Logger } from 'pino';
import { eq, inArray, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { media, uploadSessions } from '../db/schema-media.ts';
import { workspaces } from '../db/schema.ts';
import { storageDeletions } from '../db/schema-accounts.ts';
import { oauthEntities } from '../db/schema-oauth.ts';
import type { ConnectionStore } from '../connections/store.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { Platform } from './scopes.ts';
import type { MediaStorage } from '../media/storage/index.ts';
import type { ChunkStore } from '../media/chunk-store.ts';
import type { TokenSet } from '../platforms/types.ts';
import { notFound } from '../errors.ts';

export interface WorkspaceDeletionDeps {
  db: Db;
  storage: MediaStorage;
  /** Where chunked-upload sessions keep their chunks. */
  chunks: ChunkStore;
  connections: ConnectionStore;
  registry: PlatformRegistry;
  logger: Logger;
}

export class WorkspaceDeletion {
  readonly #d: WorkspaceDeletionDeps;

  constructor(deps: WorkspaceDeletionDeps) {
    this.#d = deps;
  }

  async delete(workspaceId: string): Promise<{ files: number; connections: number }> {
    // Tokens are read first: revoking them at the networks needs them, and they are gone after the commit.
    const grants = (await this.#d.connections.list(workspaceId)).map((row) => ({
      platform: row.platform as Platform,
      tokens: this.#d.connections.tokens(row),
    }));
    const files = await this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [ws] = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        .for('update');
      if (!ws) throw notFound('Workspace not found');
      const objects = await tx.select({ ref: media.storageKey }).from(media).where(eq(media.workspaceId, workspaceId));
      const uploads = await tx
        .select({ ref: uploadSessions.id })
        .from(uploadSessions)
        .where(eq(uploadSessions.workspaceId, workspaceId));
      const todo = [
        ...objects.map((o) => ({ kind: 'object' as const, ref: o.ref })),
        ...uploads.map((u) => ({ kind: 'upload_dir' as const, ref: u.ref })),
      ];
      for (let i = 0; i < todo.length; i += 500) await tx.insert(storageDeletions).values(todo.slice(i, i + 500));
      await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
      // Chat connectors' grants, codes and refresh tokens for the workspace (src/oauth/: account id
      // `<user>:<workspace>:<version>`).
      await tx.delete(oauthEntities).where(sql`${oauthEntities.payload}->>'accountId' like ${`%:${workspaceId}:%`}`);
      return objects.length;
    });
    await Promise.all([this.sweep(), this.#revoke(workspaceId, grants)]);
    return { files, connections: grants.length };
  }

  /** Best effort: a grant the network no longer knows, or a network that does not answer, is left to expire. */
  async #revoke(workspaceId: string, grants: { platform: Platform; tokens: TokenSet }[]): Promise<void> {
    await Promise.all(
      grants.map(async ({ platform, tokens }) => {
        const auth = this.#d.registry.get(platform).auth;
        if (!auth.revoke) return;
        try {
          await auth.revoke(tokens);
        } catch (err) {
          this.#d.logger.warn(
            { platform, workspace: workspaceId, err: (err as Error).name },
            'token revocation failed while deleting a workspace',
          );
        }
      }),
    );
  }

  /** Removes the stored files on the to-do list; returns how many remain (failures are retried next time). */
  async sweep(): Promise<number> {
    let failed = 0;
    for (;;) {
      const batch = await this.#d.db
        .select()
        .from(storageDeletions)
        .orderBy(storageDeletions.id)
        .limit(100)
        .offset(failed);
      if (!batch.length) return failed;
      const done: string[] = [];
      await Promise.all(
        batch.map(async (item) => {
          try {
            if (item.kind === 'object') await this.#d.storage.delete(item.ref);
            else await this.#d.chunks.remove(item.ref);
            done.push(item.id);
          } catch (err) {
            failed++;
            this.#d.logger.warn({ err, kind: item.kind }, 'could not remove a file of a deleted workspace; will retry');
          }
        }),
      );
      if (done.length) await this.#d.db.delete(storageDeletions).where(inArray(storageDeletions.id, done));
    }
  }
}
