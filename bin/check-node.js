// The Node.js version check that runs before any TypeScript source is loaded: an older Node cannot even read
// a .ts file (ERR_UNKNOWN_FILE_EXTENSION), so this file is plain JavaScript that any Node since 14 can run, and
// the minimum is read from package.json's "engines" (the one place it is written).
// `node bin/check-node.js [version]` answers for this Node (or for the version given) and exits 1 when too old.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The minimum as [major, minor, patch], from package.json's engines.node (">=22.19"). */
export function requiredVersion() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return parseVersion(String(pkg.engines.node).replace(/^>=\s*/, ''));
}

function parseVersion(text) {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)] : null;
}

/** Why Node `found` (e.g. "v20.11.1") cannot run Herald, as one line, or null when it can. */
export function nodeVersionProblem(found, required = requiredVersion()) {
  const have = parseVersion(found);
  const wanted = required.slice(0, required[2] ? 3 : 2).join('.');
  if (have) {
    for (let i = 0; i < 3; i++) {
      if (have[i] !== required[i]) {
        if (have[i] > required[i]) return null;
        break;
      }
      if (i === 2) return null;
    }
  }
  return `Herald needs Node.js ≥ ${wanted} (found ${found}). Install a newer Node (the checkout's .nvmrc names one: \`nvm install\`), then run the command again.`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problem = nodeVersionProblem(process.argv[2] || process.version);
  if (problem) {
    console.error(problem);
    process.exitCode = 1;
  } else {
    console.log(`Node.js ${process.argv[2] || process.version} can run Herald.`);
  }
}
