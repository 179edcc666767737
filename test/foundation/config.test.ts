import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { resolveSecrets } from '../../src/secrets.ts';

describe('configuration', () => {
  it('has working defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: './data',
      databaseUrl: undefined,
      defaultPlan: 'pro',
      signup: 'open',
      publicUrl: 'http://localhost:8080',
    });
  });

  it('fails naming the variable when a value is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ HERALD_SIGNUP: 'maybe' })).toThrow(/HERALD_SIGNUP/);
    expect(() => loadConfig({ HERALD_ENCRYPTION_KEY: 'short' })).toThrow(/HERALD_ENCRYPTION_KEY/);
    expect(() => loadConfig({ HERALD_PUBLIC_URL: 'not a url' })).toThrow(/HERALD_PUBLIC_URL/);
  });

  it('refuses to generate secrets in production with PostgreSQL', () => {
    const prod = { NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/herald' };
    expect(() => loadConfig(prod)).toThrow(ConfigError);
    expect(() => loadConfig(prod)).toThrow(/HERALD_JWT_SECRET[\s\S]*HERALD_ENCRYPTION_KEY/);
    expect(() =>
      loadConfig({ ...prod, HERALD_JWT_SECRET: 'x'.repeat(40), HERALD_ENCRYPTION_KEY: 'ab'.repeat(32) }),
    ).not.toThrow();
  });

  it('refuses the sandbox in production unless forced', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', HERALD_SANDBOX: '1' })).toThrow(/HERALD_SANDBOX/);
    expect(loadConfig({ NODE_ENV: 'production', HERALD_SANDBOX: '1', HERALD_SANDBOX_FORCE: '1' }).sandbox).toBe(true);
  });

  it('generates secrets once, persisted with mode 0600, and reuses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-secrets-'));
    const c = loadConfig({ HERALD_DATA_DIR: dir });
    const first = resolveSecrets(c);
    const file = join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = resolveSecrets(c);
    expect(Buffer.from(again.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    expect(again.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(first.encryptionKey).toHaveLength(32);
    expect(readFileSync(file, 'utf8')).toContain('encryption_key');
    const configured = resolveSecrets(
      loadConfig({ HERALD_DATA_DIR: dir, HERALD_ENCRYPTION_KEY: 'ab'.repeat(32), HERALD_JWT_SECRET: 'y'.repeat(40) }),
    );
    expect(configured.encryptionKey.toString('hex')).toBe('ab'.repeat(32));
  });
});
