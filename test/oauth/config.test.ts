// HERALD_OAUTH_CLIENTS and the other OAuth settings are checked at start-up, naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const client = {
  client_id: 'chatgpt',
  client_secret: 'x'.repeat(32),
  redirect_uris: ['https://chatgpt.com/aip/g-1/oauth/callback'],
};

describe('OAuth configuration', () => {
  it('reads operator clients, with the POST body as the default way to send the secret', () => {
    const c = loadConfig({ HERALD_OAUTH_CLIENTS: JSON.stringify([client]) });
    expect(c.oauth.clients).toEqual([{ ...client, token_endpoint_auth_method: 'client_secret_post' }]);
    expect(loadConfig({}).oauth).toMatchObject({
      clients: [],
      registration: 'open',
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 30 * 24 * 3600,
    });
  });

  it('refuses malformed, weak or duplicate clients', () => {
    const bad = [
      'not json',
      JSON.stringify({ ...client }),
      JSON.stringify([{ ...client, client_secret: 'short' }]),
      JSON.stringify([{ ...client, redirect_uris: [] }]),
      JSON.stringify([{ ...client, redirect_uris: ['not a url'] }]),
      JSON.stringify([{ ...client, client_id: 'has space' }]),
      JSON.stringify([{ ...client, extra: 1 }]),
      JSON.stringify([{ ...client, token_endpoint_auth_method: 'none' }]),
      JSON.stringify([client, client]),
    ];
    for (const raw of bad) {
      expect(() => loadConfig({ HERALD_OAUTH_CLIENTS: raw }), raw).toThrow(ConfigError);
      expect(() => loadConfig({ HERALD_OAUTH_CLIENTS: raw }), raw).toThrow(/HERALD_OAUTH_CLIENTS/);
    }
    expect(() => loadConfig({ HERALD_OAUTH_REGISTRATION: 'maybe' })).toThrow(/HERALD_OAUTH_REGISTRATION/);
    expect(() => loadConfig({ HERALD_OAUTH_ACCESS_TOKEN_TTL_SECONDS: '5' })).toThrow(
      /HERALD_OAUTH_ACCESS_TOKEN_TTL_SECONDS/,
    );
  });
});
