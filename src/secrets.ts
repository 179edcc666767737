// Resolves the signing and encryption keys: from configuration, or generated once and kept in the
// data directory (mode 0600). Production with PostgreSQL never reaches the generator (config refuses).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';

export interface Secrets {
  jwtSecret: Uint8Array;
  /** 32 bytes for AES-256-GCM. */
  encryptionKey: Buffer;
}

function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64url');
}

export function resolveSecrets(config: Config): Secrets {
  let jwt = config.jwtSecret;
  let enc = config.encryptionKey;
  if (!jwt || !enc) {
    const file = join(config.dataDir, 'secrets.json');
    let stored: { jwt_secret?: string; encryption_key?: string } = {};
    if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
    const next = {
      jwt_secret: stored.jwt_secret ?? randomBytes(48).toString('base64url'),
      encryption_key: stored.encryption_key ?? randomBytes(32).toString('base64url'),
    };
    if (next.jwt_secret !== stored.jwt_secret || next.encryption_key !== stored.encryption_key) {
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
    }
    chmodSync(file, 0o600);
    jwt ??= next.jwt_secret;
    enc ??= next.encryption_key;
  }
  const encryptionKey = decodeKey(enc);
  if (encryptionKey.length !== 32) throw new Error('HERALD_ENCRYPTION_KEY must decode to 32 bytes');
  return { jwtSecret: new TextEncoder().encode(jwt), encryptionKey };
}
