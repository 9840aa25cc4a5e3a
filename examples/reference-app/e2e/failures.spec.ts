import { expect, test } from '@playwright/test';
import { e2e } from './stack';
import {
  atProviderLogin,
  fact,
  headerSignIn,
  logIn,
  snap,
  userName,
  watchProvider,
} from './support';

test('6. a wrong password stays on the login page with the error', async ({ page }) => {
  await page.goto('/');
  await headerSignIn(page).click();
  await logIn(page, 'alice', 'not-her-password');
  await expect(page.getByText('Wrong username or password')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await snap(page, 'provider-wrong-password');
});

test('6. Cancel comes back with "sign-in cancelled", a working Try again, and no loop', async ({
  page,
}) => {
  const provider = watchProvider(page);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(`${e2e.app}/dashboard`);
  await expect(page.getByRole('alert')).toContainText('Sign-in was cancelled.');
  await snap(page, 'sign-in-cancelled');
  await page.waitForTimeout(1500);
  expect(provider.authorizations()).toBe(1);
  await expect(page).toHaveURL(`${e2e.app}/dashboard`);

  await page.getByRole('button', { name: 'Try again' }).click();
  await logIn(page, 'alice');
  await expect(page).toHaveURL(`${e2e.app}/dashboard`);
  await expect(fact(page, 'Subject')).toHaveText('alice');
  expect(provider.authorizations()).toBe(2);
});

test('6. a sign-in started on /callback and cancelled is explained once, and returns home', async ({
  page,
}) => {
  // Opened with nothing to finish (a bookmark, a replayed response): Sign in does not return here.
  await page.goto('/callback');
  await expect(page.getByRole('link', { name: 'Continue' })).toBeVisible();
  await headerSignIn(page).click();
  await atProviderLogin(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toContainText('Sign-in was cancelled.');
  await expect(page).toHaveURL(`${e2e.app}/`);
  await expect(page.getByRole('alert')).toHaveCount(1);
  await expect(page.getByText('Sign-in was cancelled.')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(1);
  await snap(page, 'sign-in-cancelled-from-callback');

  await page.getByRole('button', { name: 'Try again' }).click();
  await logIn(page, 'alice');
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  await expect(page).toHaveURL(`${e2e.app}/`);
});

test('9. replaying an old callback URL ends on a clean page with no error loop', async ({
  page,
  browser,
}) => {
  const callbacks: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${e2e.app}/callback?`)) callbacks.push(request.url());
  });
  await page.goto('/');
  await headerSignIn(page).click();
  await logIn(page, 'alice');
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  const old = callbacks[0] as string;
  expect(old).toContain('code=');

  // In the same tab (reload / back button): still signed in, the address clean.
  const provider = watchProvider(page);
  await page.goto(old);
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  await expect(page).not.toHaveURL(/code=|state=/);
  await page.waitForTimeout(1000);
  expect(provider.authorizations()).toBe(0);
  expect(provider.codeExchanges()).toBe(0);

  // In a browser with no session: signed out, the address clean, and no redirect.
  const fresh = await browser.newPage();
  const freshProvider = watchProvider(fresh);
  await fresh.goto(old);
  await expect(fresh.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(fresh).not.toHaveURL(/code=|state=/);
  await fresh.waitForTimeout(1000);
  expect(freshProvider.authorizations()).toBe(0);
  expect(freshProvider.codeExchanges()).toBe(0);
  await snap(fresh, 'replayed-callback');
  await fresh.close();
});

test.describe('a sign-in response changed on its way back is refused: no code sent, the address clean', () => {
  for (const [name, tamper] of [
    ['a code given twice', (url: URL) => url.searchParams.append('code', 'forged')],
    [
      'the response in the fragment',
      (url: URL) => {
        url.hash = url.search.slice(1);
        url.search = '';
      },
    ],
  ] as const) {
    test(name, async ({ page }) => {
      await page.goto('/');
      await headerSignIn(page).click();
      // The provider's redirect to the callback goes to the changed address instead.
      // (Playwright routes the first request of a redirect chain only: the provider's own redirects
      // are followed here, with the page's cookies.)
      await page.route(`${e2e.provider}/**`, async (route) => {
        let response = await route.fetch({ maxRedirects: 0 });
        let location = response.headers().location;
        while (location !== undefined && new URL(location, e2e.provider).origin === e2e.provider) {
          response = await page.request.get(new URL(location, e2e.provider).href, {
            maxRedirects: 0,
          });
          location = response.headers().location;
        }
        if (location?.startsWith(`${e2e.app}/callback?`) !== true) {
          return route.fulfill({ response });
        }
        const url = new URL(location);
        tamper(url);
        return route.fulfill({ status: 303, headers: { location: url.href } });
      });
      const provider = watchProvider(page);
      await logIn(page, 'alice');
      await expect(page).toHaveURL(new RegExp(`^${e2e.app}/`));
      await expect(headerSignIn(page)).toBeVisible();
      await expect(page).not.toHaveURL(/code=|state=/);
      await page.waitForTimeout(1000);
      expect(provider.codeExchanges()).toBe(0);
    });
  }
});
