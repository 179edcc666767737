// The networks an AI request names, shared by the AI routes and the AI tools: a list of slugs, or ["all"] (the
// networks the caller's key may use, narrowed by target_platforms). Unknown names are 400; a network outside the
// key's scope named explicitly is the caller's to refuse (403) before this runs.
import type { Scope } from '../auth/scopes.ts';
import { AppError } from '../errors.ts';

export function aiTargets(
  scope: Pick<Scope, 'platforms'>,
  slugs: readonly string[],
  named: readonly string[] | null | undefined,
  narrow: readonly string[] | null | undefined,
  known: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): string[] {
  if (!named?.length) throw new AppError('bad_request', 'platforms is required: a list of networks, or ["all"].');
  const canon = (s: string) => extra[s.toLowerCase()] ?? s.toLowerCase();
  const unknown = [...named, ...(narrow ?? [])].map(canon).filter((s) => s !== 'all' && !known.includes(s));
  if (unknown.length)
    throw new AppError('bad_request', `Unknown platform '${unknown[0]}'. Known: ${known.join(', ')}, or all.`);
  let out: string[];
  if (named.map(canon).includes('all')) {
    out = known.filter((s) => !slugs.includes(s) || scope.platforms.has(s as never));
    if (narrow?.length) out = out.filter((s) => narrow.map(canon).includes(s));
  } else {
    out = [...new Set(named.map(canon))];
  }
  if (!out.length)
    throw new AppError(
      'bad_request',
      'No network left to generate for: target_platforms and the key scope leave none.',
    );
  return out;
}

type NetworkPostTypes = { slug: string; capabilities: { postTypes: readonly string[] } };

/**
 * The networks to make an image for, shared by POST /unified/image/generate and content_to_image: as aiTargets, with
 * X (twitter, alias x) too; "all" keeps only the networks that post images.
 */
export function imageTargets(
  scope: Pick<Scope, 'platforms'>,
  networks: readonly NetworkPostTypes[],
  named: readonly string[] | null | undefined,
): string[] {
  const slugs = networks.map((n) => n.slug);
  const imageNetworks = networks.filter((n) => n.capabilities.postTypes.includes('image')).map((n) => n.slug);
  const out = aiTargets(scope, slugs, named, undefined, [...slugs, 'twitter'], { x: 'twitter' });
  return (named ?? []).map((s) => s.toLowerCase()).includes('all')
    ? out.filter((s) => imageNetworks.includes(s) || s === 'twitter')
    : out;
}

const SOURCE_MISSING = {
  idea: 'idea is required (unless idea_by_platform gives one for every network).',
  content: 'content is required (unless content_by_platform gives it for every network).',
} as const;

/** Copy needs an idea, an image its copy: `value`, unless `byPlatform` gives one for every target (400 otherwise). */
export function assertSourceGiven(
  field: keyof typeof SOURCE_MISSING,
  targets: readonly string[],
  value: string | null | undefined,
  byPlatform: Readonly<Record<string, string>> | null | undefined,
): void {
  const missing = targets.filter((s) => !byPlatform?.[s]?.trim());
  if (missing.length && !value?.trim()) throw new AppError('bad_request', SOURCE_MISSING[field]);
}
