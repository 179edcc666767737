// Each network's app credentials, base URL overrides, scopes and declared settings (HERALD_<PLATFORM>_*).

export interface PlatformEnvConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /**
   * Base URL overrides by the adapter's key, from HERALD_<PLATFORM>_<KEY>_URL (e.g. HERALD_LINKEDIN_API_BASE_URL →
   * apiBase).
   */
  urls: Record<string, string>;
  /**
   * OAuth scopes to ask for instead of the adapter's list, from HERALD_<PLATFORM>_SCOPES (space- or comma-separated).
   */
  scopes?: string[] | undefined;
  /**
   * What the operator declares about the app, from the network's other HERALD_<PLATFORM>_<KEY> (e.g.
   * HERALD_TIKTOK_AUDITED → audited).
   */
  settings?: Record<string, string> | undefined;
}

const PLATFORM_ENV_OWN = new Set(['CLIENT_ID', 'CLIENT_SECRET', 'SCOPES']);

/** HERALD_LINKEDIN_API_BASE_URL → apiBase; HERALD_BLUESKY_SERVICE_URL → service. */
export function platformEnv(
  source: Record<string, string | undefined>,
  slugs: readonly string[],
): { configs: Record<string, PlatformEnvConfig>; errors: string[] } {
  const configs: Record<string, PlatformEnvConfig> = {};
  const errors: string[] = [];
  for (const p of slugs) {
    const prefix = `HERALD_${p.toUpperCase()}_`;
    const urls: Record<string, string> = {};
    for (const [name, value] of Object.entries(source)) {
      if (!name.startsWith(prefix) || !name.endsWith('_URL') || !value) continue;
      const key = name
        .slice(prefix.length, -'_URL'.length)
        .toLowerCase()
        .replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      if (!/^https?:\/\//.test(value)) errors.push(`  ${name}: must be an http(s) URL`);
      else urls[key] = value.replace(/\/+$/, '');
    }
    const scopes = (source[`${prefix}SCOPES`] ?? '').split(/[\s,]+/).filter(Boolean);
    const settings: Record<string, string> = {};
    for (const [name, value] of Object.entries(source)) {
      if (!name.startsWith(prefix) || name.endsWith('_URL') || value === undefined || value.trim() === '') continue;
      const raw = name.slice(prefix.length);
      if (PLATFORM_ENV_OWN.has(raw)) continue;
      settings[raw.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] = value.trim();
    }
    configs[p] = {
      clientId: source[`${prefix}CLIENT_ID`] || undefined,
      clientSecret: source[`${prefix}CLIENT_SECRET`] || undefined,
      urls,
      ...(scopes.length ? { scopes } : {}),
      ...(Object.keys(settings).length ? { settings } : {}),
    };
  }
  return { configs, errors };
}
