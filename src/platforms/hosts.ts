// The one rule for a network's hosts: each key its contract declares takes the configured URL when there
// is one (HERALD_<NET>_<KEY>_URL, or the simulator's in sandbox mode), else the real network's default;
// trailing slashes are dropped. Keys the contract does not declare are ignored.
export function resolveHosts<K extends string>(
  defaults: Readonly<Record<K, string>>,
  configured: Readonly<Record<string, string | undefined>> = {},
): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of Object.keys(defaults) as K[]) out[key] = (configured[key] || defaults[key]).replace(/\/+$/, '');
  return out;
}
