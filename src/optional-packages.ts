// Packages a server installs only for the feature that uses them: the AI SDK (an external AI provider) and the S3 SDK
// (media in a bucket). They are development dependencies (the tests use them) and optional peer dependencies in
// package.json, so `npm ci --omit=dev` leaves them out; `installCommand` says how a server adds them. A feature
// configured without its packages stops with a MissingPackageError naming them, and `herald doctor` says the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const OPTIONAL_FEATURES = {
  openai: { what: 'HERALD_AI_PROVIDER=openai', packages: ['ai', '@ai-sdk/openai'] },
  anthropic: { what: 'HERALD_AI_PROVIDER=anthropic', packages: ['ai', '@ai-sdk/anthropic'] },
  google: { what: 'HERALD_AI_PROVIDER=google', packages: ['ai', '@ai-sdk/google'] },
  'openai-compatible': {
    what: 'HERALD_AI_PROVIDER=openai-compatible',
    packages: ['ai', '@ai-sdk/openai-compatible', '@ai-sdk/openai'],
  },
  s3: { what: 'HERALD_STORAGE=s3', packages: ['@aws-sdk/client-s3', '@aws-sdk/lib-storage'] },
} as const;

export type OptionalFeature = keyof typeof OPTIONAL_FEATURES;

const require = createRequire(import.meta.url);
let versions: Record<string, string> | undefined;

function readJson<T>(name: string): T | undefined {
  try {
    return JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * The version to install: the one package-lock.json pins (the one the tests ran with), else the range of
 * package.json's peerDependencies.
 */
function versionOf(pkg: string): string | undefined {
  if (!versions) {
    const lock = readJson<{ packages?: Record<string, { version?: string }> }>('package-lock.json');
    const json = readJson<{ peerDependencies?: Record<string, string> }>('package.json');
    versions = { ...json?.peerDependencies };
    for (const name of Object.keys(versions)) {
      const locked = lock?.packages?.[`node_modules/${name}`]?.version;
      if (locked) versions[name] = locked;
    }
  }
  return versions[pkg];
}

/**
 * The command that adds the packages to a server install (`npm ci --omit=dev`) without changing package.json or
 * the lock file (`--save-prod` makes npm install what package.json lists as a development dependency; the next
 * `npm ci` removes them again).
 */
export function installCommand(packages: readonly string[]): string {
  const specs = packages.map((p) => {
    const version = versionOf(p);
    return version ? `${p}@${version}` : p;
  });
  return `npm install --omit=dev --no-save --save-prod ${specs.join(' ')}`;
}

/** Whether Node finds the package from Herald's sources (without loading it). */
export function isInstalled(pkg: string): boolean {
  try {
    require.resolve(`${pkg}/package.json`);
    return true;
  } catch {
    try {
      // Packages whose exports map leaves out package.json.
      require.resolve(pkg);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND';
    }
  }
}

/** The feature's packages this install lacks (empty when all are there). */
export function missingPackages(feature: OptionalFeature): string[] {
  return OPTIONAL_FEATURES[feature].packages.filter((p) => !isInstalled(p));
}

export class MissingPackageError extends Error {
  readonly feature: OptionalFeature;
  readonly packages: string[];

  constructor(feature: OptionalFeature, packages: string[]) {
    const { what } = OPTIONAL_FEATURES[feature];
    super(
      `${what} needs the package${packages.length > 1 ? 's' : ''} ${packages.join(', ')}, ` +
        `which the server install (npm ci --omit=dev) leaves out: add ${packages.length > 1 ? 'them' : 'it'} with ` +
        `\`${installCommand(packages)}\` (docs/deployment.md, Optional packages)`,
    );
    this.name = 'MissingPackageError';
    this.feature = feature;
    this.packages = packages;
  }
}

/** Throws a MissingPackageError when the feature's packages are not all installed. */
export function requireFeature(feature: OptionalFeature): void {
  const missing = missingPackages(feature);
  if (missing.length) throw new MissingPackageError(feature, missing);
}
