// An API key's scope string (the interface's Authentication section): `full`, or a comma list of networks.

export function scopeFrom(all: boolean, networks: readonly string[]): string {
  return all || networks.length === 0 ? 'full' : [...networks].sort().join(',');
}

/** The networks a scope names; `all` for full access. The two LinkedIn-only forms are named as such. */
export function describeScope(scope: string): { all: boolean; networks: string[]; special: string | null } {
  const s = scope.trim();
  if (s === '' || s === 'full') return { all: true, networks: [], special: null };
  if (s === 'linkedin_only' || s === 'linkedin_posts') return { all: false, networks: ['linkedin'], special: s };
  return {
    all: false,
    networks: s
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    special: null,
  };
}

/** `expires_at` for a key that lasts `days` days from `now`; null (never) for 0. */
export function expiryFrom(days: number, now: number): string | null {
  return days > 0 ? new Date(now + days * 86_400_000).toISOString() : null;
}

/** The connection addresses of this server, from its public origin. */
export function serverUrls(origin: string) {
  const base = origin.replace(/\/+$/, '');
  return {
    mcp: `${base}/mcp`,
    webMcp: `${base}/web/mcp`,
    actions: `${base}/openapi/chatgpt-actions.json`,
    authorize: `${base}/auth/oauth/authorize`,
    token: `${base}/auth/oauth/token`,
  };
}
