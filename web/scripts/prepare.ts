// npm's `prepare` step (`npm ci`, `npm install`): builds the web app into web/dist, so `npm ci && npm start` serves it.
// An install without the development tools (`npm ci --omit=dev`) has no Vite to build with: it says so in one line
// and succeeds, and Herald then serves the API alone (or a web/dist built elsewhere).
import { execSync } from 'node:child_process';

try {
  import.meta.resolve('vite');
} catch {
  console.log('herald: development tools not installed (npm ci --omit=dev): the web app is not built.');
  process.exit(0);
}
execSync('npm run build:web', { stdio: 'inherit' });
