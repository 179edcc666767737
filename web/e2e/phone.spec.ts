// The app on a 390 px wide phone: no page scrolls sideways, the navigation opens from the menu button, and the
// pages pass the accessibility check at that size too.
import { expect, test } from './fixtures.ts';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('on a phone: pages fit the width, the menu opens the navigation', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Phone' });
  for (const path of ['/compose', '/connections', '/calendar', '/settings']) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(page.locator('main h1')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    await helpers.checkA11y(`${path} on a phone`);
  }
  await helpers.shot('phone-settings');
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Compose' })).toBeVisible();
  await helpers.shot('phone-menu');
  await nav.getByRole('link', { name: 'Compose' }).click();
  await expect(page).toHaveURL(/\/compose$/);
});
