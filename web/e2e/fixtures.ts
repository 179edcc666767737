// What every browser test uses: an accessibility check (axe: no serious or critical violation), screenshots kept
// under web/e2e/screenshots, and signing up a fresh account through the app's own page.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test as base } from '@playwright/test';

export { expect };

/** Where screenshots go (gitignored; CI keeps the folder as an artifact). */
export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

export const PASSWORD = 'correct horse battery staple';

let accounts = 0;
/** A new address for each sign-up of the run. */
export const newEmail = () => `e2e-${Date.now().toString(36)}-${++accounts}@example.test`;

export interface Helpers {
  /** Fails on any serious or critical accessibility violation of the page as it is now. */
  checkA11y(what: string): Promise<void>;
  /** Saves a full-page screenshot as screenshots/<name>.png. */
  shot(name: string): Promise<void>;
  /** Signs up through /signup and waits until the app shows the signed-in shell. */
  signUp(opts?: { email?: string; workspace?: string }): Promise<{ email: string }>;
}

export async function signUp(page: Page, opts: { email?: string; workspace?: string } = {}) {
  const email = opts.email ?? newEmail();
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  if (opts.workspace) await page.getByLabel(/^Workspace name/).fill(opts.workspace);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  return { email };
}

export const test = base.extend<{ helpers: Helpers; pageErrors: undefined }>({
  // Every test fails on a script error of the page, or on anything the Content-Security-Policy blocked.
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) errors.push(msg.text());
      });
      await use(undefined);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
  helpers: async ({ page }, use) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await use({
      async checkA11y(what) {
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
        expect(bad, `accessibility of ${what}`).toEqual([]);
      },
      async shot(name) {
        // From the top: a page scrolled down draws its sticky header in the middle of a full-page screenshot.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
      },
      signUp: (opts) => signUp(page, opts),
    });
  },
});
