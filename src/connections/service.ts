// Connecting, inspecting and disconnecting networks. Routes and tools both call this.
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { and, eq, gt, isNull } from '../db/orm.ts';
import { oauthStates } from '../db/schema-connections.ts';
import { users, workspaceMembers, workspaces } from '../db/schema.ts';
import type { SecretBox } from '../crypto.ts';
import type { PlanCatalog } from '../auth/plans.ts';
import type { Platform } from '../platforms/slugs.ts';
import { AppError } from '../errors.ts';
import type { Mailer } from '../mail.ts';
import { safeText } from '../platforms/errors.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import { PlatformError, type AccountIdentity, type TokenSet } from '../platforms/types.ts';
import type { ConnectionRow, ConnectionStore } from './store.ts';
import type { TokenKeeper } from './tokens.ts';

export interface ConnectResult {
  success: boolean;
  message: string;
  auth_url: string | null;
}

export interface CallbackResult {
  ok: boolean;
  platform: Platform;
  message: string;
  workspaceId?: string;
  /** Shown on the result page, so whoever opened the link sees which workspace the account joined. */
  workspaceName?: string;
}

const hashNonce = (nonce: string) => createHash('sha256').update(nonce).digest('hex');
const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface ConnectionDeps {
  db: Db;
  box: SecretBox;
  store: ConnectionStore;
  tokens: TokenKeeper;
  registry: PlatformRegistry;
  plans: PlanCatalog;
  mailer: Mailer;
  clock: () => Date;
  logger: Logger;
  publicUrl: string;
  stateTtlSeconds: number;
}

export class ConnectionService {
  readonly #d: ConnectionDeps;

  constructor(deps: ConnectionDeps) {
    this.#d = deps;
  }

  redirectUri(platform: Platform): string {
    return `${this.#d.publicUrl}/${platform}/oauth/callback`;
  }

  /** The plan's connected-account limit, checked before a new account is added. */
  async #assertRoomFor(workspaceId: string, planId: string, tx: Db = this.#d.db): Promise<void> {
    const limit = this.#d.plans.get(planId).limits.max_connected_accounts;
    if (limit === null) return;
    const used = await this.#d.store.count(workspaceId, tx);
    if (used >= limit) {
      throw new AppError('limit_reached', {
        error: 'connected_account_limit',
        used,
        limit,
        message: `Connected account limit reached: the ${planId} plan allows ${limit}.`,
      });
    }
  }

  async startOAuth(
    ws: { id: string; planId: string },
    platform: Platform,
    userId: string | null,
  ): Promise<ConnectResult> {
    const adapter = this.#d.registry.get(platform);
    if (adapter.auth.kind !== 'oauth2') throw new Error(`${platform} does not use OAuth`);
    if (!adapter.configured) {
      return {
        success: false,
        message: `${adapter.displayName} is not configured on this server (set HERALD_${platform.toUpperCase()}_CLIENT_ID and HERALD_${platform.toUpperCase()}_CLIENT_SECRET).`,
        auth_url: null,
      };
    }
    const existing = await this.#d.store.list(ws.id, platform);
    if (!existing.length) {
      try {
        await this.#assertRoomFor(ws.id, ws.planId);
      } catch (err) {
        if (err instanceof AppError)
          return { success: false, message: (err.detail as { message: string }).message, auth_url: null };
        throw err;
      }
    }
    const nonce = randomBytes(32).toString('base64url');
    const verifier = adapter.auth.pkce ? randomBytes(48).toString('base64url') : undefined;
    const id = crypto.randomUUID();
    const redirectUri = this.redirectUri(platform);
    await this.#d.db.insert(oauthStates).values({
      id,
      workspaceId: ws.id,
      platform,
      nonceHash: hashNonce(nonce),
      codeVerifierEnc: verifier ? this.#d.box.seal(verifier, `oauth-state:${id}`) : null,
      redirectUri,
      createdBy: userId,
      expiresAt: new Date(this.#d.clock().getTime() + this.#d.stateTtlSeconds * 1000),
    });
    const authUrl = adapter.auth.authorizeUrl({
      state: nonce,
      redirectUri,
      ...(verifier ? { codeChallenge: pkceChallenge(verifier) } : {}),
    });
    return { success: true, message: `Open auth_url to connect ${adapter.displayName}.`, auth_url: authUrl };
  }

  /** The workspace a pending connect link (by its state) is for, or null for an unknown, used or expired state. */
  async workspaceNameForState(platform: string, nonce: string): Promise<string | null> {
    const [row] = await this.#d.db
      .select({ name: workspaces.name })
      .from(oauthStates)
      .innerJoin(workspaces, eq(workspaces.id, oauthStates.workspaceId))
      .where(
        and(
          eq(oauthStates.nonceHash, hashNonce(nonce)),
          eq(oauthStates.platform, platform),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, this.#d.clock()),
        ),
      );
    return row?.name ?? null;
  }

  /** The network sent the browser back. Any failure stores nothing. */
  async completeOAuth(
    platform: Platform,
    q: {
      code?: string | undefined;
      state?: string | undefined;
      error?: string | undefined;
      error_description?: string | undefined;
    },
  ): Promise<CallbackResult> {
    const adapter = this.#d.registry.get(platform);
    const fail = (message: string, workspaceId?: string): CallbackResult => ({
      ok: false,
      platform,
      message,
      ...(workspaceId ? { workspaceId } : {}),
    });
    if (!q.state) return fail('The sign-in link is incomplete (no state). Start the connection again from Herald.');
    // Consuming the state is one guarded UPDATE: a replayed, expired, tampered or cross-network state matches nothing.
    const [state] = await this.#d.db
      .update(oauthStates)
      .set({ usedAt: this.#d.clock() })
      .where(
        and(
          eq(oauthStates.nonceHash, hashNonce(q.state)),
          eq(oauthStates.platform, platform),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, this.#d.clock()),
        ),
      )
      .returning();
    if (!state)
      return fail('This sign-in link is invalid, expired or was already used. Start the connection again from Herald.');
    const [ws] = await this.#d.db
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, state.workspaceId));
    const named = (r: CallbackResult): CallbackResult => (ws ? { ...r, workspaceName: ws.name } : r);
    return named(await this.#finishOAuth(platform, adapter, state, q, fail, ws?.name));
  }

  async #finishOAuth(
    platform: Platform,
    adapter: ReturnType<PlatformRegistry['get']>,
    state: typeof oauthStates.$inferSelect,
    q: { code?: string | undefined; error?: string | undefined; error_description?: string | undefined },
    fail: (message: string, workspaceId?: string) => CallbackResult,
    workspaceName: string | undefined,
  ): Promise<CallbackResult> {
    if (q.error || !q.code) {
      // Whatever the network (or anyone crafting the link) put in the query is shown cleaned and short.
      const why = [safeText(q.error), safeText(q.error_description)].filter(Boolean).join(': ') || 'no reason given';
      return fail(
        q.error ? `${adapter.displayName} did not grant access (${why}).` : 'No authorization code was returned.',
        state.workspaceId,
      );
    }
    if (adapter.auth.kind !== 'oauth2') return fail(`${adapter.displayName} does not use OAuth.`, state.workspaceId);
    const verifier = state.codeVerifierEnc
      ? this.#d.box.open(state.codeVerifierEnc, `oauth-state:${state.id}`)
      : undefined;
    let tokens: TokenSet;
    let identity: AccountIdentity;
    try {
      tokens = await adapter.auth.exchangeCode({
        code: q.code,
        redirectUri: state.redirectUri,
        ...(verifier ? { codeVerifier: verifier } : {}),
      });
      identity = await adapter.fetchAccount(tokens);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      this.#d.logger.warn(
        { platform, workspace: state.workspaceId, kind: err.kind, status: err.status },
        'oauth code exchange failed',
      );
      return fail(`Connecting ${adapter.displayName} failed: ${err.message}`, state.workspaceId);
    }
    try {
      await this.#save(state.workspaceId, platform, identity, tokens);
    } catch (err) {
      if (err instanceof AppError)
        return fail(
          typeof err.detail === 'string'
            ? err.detail
            : String((err.detail as { message?: string }).message ?? err.message),
          state.workspaceId,
        );
      throw err;
    }
    const where = workspaceName === undefined ? '' : ` to the Herald workspace "${workspaceName}"`;
    return {
      ok: true,
      platform,
      message: `${adapter.displayName} is connected as ${identity.name}${where}.`,
      workspaceId: state.workspaceId,
    };
  }

  async #save(
    workspaceId: string,
    platform: Platform,
    identity: AccountIdentity,
    tokens: TokenSet,
  ): Promise<ConnectionRow> {
    return this.#d.db.transaction(async (tx) => {
      const [ws] = await tx
        .select({ planId: workspaces.planId })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      if (!ws) throw new AppError('not_found', 'Workspace not found');
      // Inside the transaction everything goes through tx: embedded PGlite has one connection.
      const existing = await this.#d.store.list(workspaceId, platform, tx as unknown as Db);
      if (!existing.some((c) => c.accountId === identity.id))
        await this.#assertRoomFor(workspaceId, ws.planId, tx as unknown as Db);
      const { row } = await this.#d.store.upsert(workspaceId, platform, identity, tokens, tx as unknown as Db);
      return row;
    });
  }

  /** Networks like Bluesky connect with a handle and an app password; the account password is refused. */
  async connectWithAppPassword(
    ws: { id: string; planId: string },
    platform: Platform,
    handle: string,
    appPassword: string,
  ): Promise<ConnectResult> {
    const adapter = this.#d.registry.get(platform);
    const auth = adapter.auth;
    if (auth.kind !== 'app_password') throw new Error(`${platform} does not connect with app passwords`);
    const badFormat = auth.refusePassword?.(appPassword.trim());
    if (badFormat)
      throw new AppError('validation', [
        { loc: ['body', 'app_password'], msg: badFormat, type: 'app_password_format' },
      ]);
    try {
      const tokens = await auth.login({ handle: handle.trim().replace(/^@/, ''), appPassword: appPassword.trim() });
      const refused = auth.refuseSession?.(tokens);
      if (refused) {
        await auth.revoke?.(tokens).catch(() => {});
        throw new AppError('validation', [
          { loc: ['body', 'app_password'], msg: refused, type: 'app_password_required' },
        ]);
      }
      const identity = await adapter.fetchAccount(tokens);
      await this.#save(ws.id, platform, identity, tokens);
      return {
        success: true,
        message: `${adapter.displayName} is connected as @${identity.username ?? identity.name}.`,
        auth_url: null,
      };
    } catch (err) {
      if (err instanceof PlatformError)
        return { success: false, message: `Connecting ${adapter.displayName} failed: ${err.message}`, auth_url: null };
      if (err instanceof AppError && err.code === 'limit_reached')
        return { success: false, message: (err.detail as { message: string }).message, auth_url: null };
      throw err;
    }
  }

  /** Connection state per network: connected, not connected, or needing a reconnect. No token values. */
  /** Connection status per network; `connected` repeats `success` for clients of the setup guide, which read it. */
  async status(
    workspaceId: string,
    platforms: Platform[],
  ): Promise<Record<string, { success: boolean; connected: boolean; message: string }>> {
    const rows = await this.#d.store.list(workspaceId);
    const out: Record<string, { success: boolean; connected: boolean; message: string }> = {};
    for (const p of platforms) {
      const name = this.#d.registry.get(p).displayName;
      const mine = rows.filter((r) => r.platform === p);
      const live = mine.filter((r) => r.status === 'connected');
      // A note on a usable connection (its account cannot publish, its token cannot be renewed) follows the names.
      const notes = live
        .filter((r) => r.statusReason)
        .map((r) => ` ${live.length > 1 ? `${r.displayName}: ` : ''}${r.statusReason}`);
      if (live.length)
        out[p] = {
          success: true,
          connected: true,
          message: `${name} connected as ${live.map((r) => r.displayName).join(', ')}.${notes.join('')}`,
        };
      else if (mine.length)
        out[p] = {
          success: false,
          connected: false,
          message: `${name} needs to be reconnected: ${mine[0]!.statusReason ?? 'access was revoked'}.`,
        };
      else out[p] = { success: false, connected: false, message: `${name} not connected for this workspace.` };
    }
    return out;
  }

  /** Revokes at the network where possible (best effort), deletes the tokens, tells the owners. */
  async disconnect(
    workspaceId: string,
    platform: Platform,
  ): Promise<{ success: boolean; message: string; data: null }> {
    const adapter = this.#d.registry.get(platform);
    const rows = await this.#d.store.list(workspaceId, platform);
    if (!rows.length)
      return { success: false, message: `${adapter.displayName} not connected for this workspace.`, data: null };
    for (const row of rows) {
      const revoke = adapter.auth.revoke?.bind(adapter.auth);
      if (!revoke) continue;
      try {
        await revoke(this.#d.store.tokens(row));
      } catch (err) {
        // The grant may already be dead at the network; the local tokens are deleted regardless.
        this.#d.logger.warn(
          { platform, connection: row.id, kind: err instanceof PlatformError ? err.kind : 'error' },
          'revocation at the network failed',
        );
      }
    }
    await this.#d.store.delete(workspaceId, platform);
    await this.#notifyOwners(
      workspaceId,
      adapter.displayName,
      rows.map((r) => r.displayName),
    );
    return { success: true, message: 'Token deleted', data: null };
  }

  async #notifyOwners(workspaceId: string, network: string, accounts: string[]): Promise<void> {
    const owners = await this.#d.db
      .select({ email: users.email, wsName: workspaces.name })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
    for (const o of owners) {
      await this.#d.mailer.send({
        workspaceId,
        to: o.email,
        kind: 'account_disconnected',
        subject: `${network} was disconnected from ${o.wsName}`,
        body: `${network} (${accounts.join(', ')}) was disconnected from the Herald workspace "${o.wsName}" at ${this.#d.clock().toISOString()}.\nScheduled posts for it will fail until it is connected again.`,
      });
    }
  }
}
