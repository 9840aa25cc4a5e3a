import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import {
  atProviderLogin,
  fact,
  headerSignIn,
  logIn,
  luminance,
  navLink,
  snap,
  userName,
} from './support';

/** The relative luminance of the page's background, 0 for black to 1 for white. */
async function canvasLuminance(page: Page): Promise<number> {
  return luminance(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
}

test.describe('a reader whose system asks for a dark scheme', () => {
  test.use({ colorScheme: 'dark' });

  test('gets dark pages, every one of them readable (axe colour contrast), signed out and in', async ({
    page,
  }) => {
    await page.goto('/');
    expect(await canvasLuminance(page)).toBeLessThan(0.05);
    await snap(page, 'home-signed-out-dark');
    await headerSignIn(page).click();
    await logIn(page, 'alice');
    await expect(userName(page, 'Alice Liddell')).toBeVisible();
    await snap(page, 'home-signed-in-dark');
    await navLink(page, 'Dashboard').click();
    await expect(fact(page, 'Subject')).toHaveText('alice');
    await snap(page, 'dashboard-dark');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
    await snap(page, 'admin-forbidden-dark');
  });

  test('the sign-in problem banner is readable too', async ({ page }) => {
    await page.goto('/dashboard');
    await atProviderLogin(page);
    await snap(page, 'provider-login-dark');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('alert')).toContainText('Sign-in was cancelled.');
    expect(await canvasLuminance(page)).toBeLessThan(0.05);
    await snap(page, 'sign-in-cancelled-dark');
  });
});

test.describe('a reader whose system asks for a light scheme', () => {
  test.use({ colorScheme: 'light' });

  test('keeps the light pages', async ({ page }) => {
    await page.goto('/');
    expect(await canvasLuminance(page)).toBeGreaterThan(0.8);
  });
});
