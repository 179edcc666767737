// Page access tokens. One per (grant, page), minted on first request: never expiring when derived from a long-lived
// user token, dying with the user token otherwise.
import { randomAlnum } from '../core/ids.ts';
import type { Call } from '../core/route.ts';
import { mintToken } from '../core/tokens.ts';
import type { AssetRecord, TokenRecord } from '../core/types.ts';

export function pageTokenFor(call: Call, user: TokenRecord, page: AssetRecord): TokenRecord {
  const expiresAt = user.kind === 'long' ? null : user.expiresAt;
  for (const t of call.slice.tokens.values()) {
    if (
      t.kind === 'page' &&
      t.grantId === user.grantId &&
      t.assetId === page.id &&
      t.revokedAt === null &&
      t.expiresAt === expiresAt
    ) {
      return t;
    }
  }
  return mintToken(call.ctx, call.slice, {
    token: `EAA${randomAlnum(190)}`,
    kind: 'page',
    clientId: user.clientId,
    accountId: user.accountId,
    grantId: user.grantId,
    scopes: user.scopes,
    ttlSec: null,
    expiresAt,
    assetId: page.id,
  });
}
