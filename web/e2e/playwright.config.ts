// The browser suite (`npm run test:web`): Playwright driving Debian's chromium (never a downloaded browser) against
// a real Herald in sandbox mode on a fresh embedded database, started by global-setup.ts. Screenshots of each flow
// are written to web/e2e/screenshots (kept by CI as artifacts); failures keep a trace under web/e2e/results.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: './results',
  globalSetup: './global-setup.ts',
  // One Herald, one worker: the machine's cores go to the server and the browser.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // The longest flows (sign up two members, send for approval, decide) take most of a minute on a loaded two-core
  // machine: a test's whole budget is a ceiling against a hang, not a speed target.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    // Set by global-setup.ts (workers start after it, with its environment).
    baseURL: process.env.HERALD_E2E_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.HERALD_E2E_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Containers often give /dev/shm a few megabytes, which crashes chromium's renderers.
        '--disable-dev-shm-usage',
      ],
    },
  },
});
