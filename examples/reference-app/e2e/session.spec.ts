import { expect, test } from '@playwright/test';
import { e2e } from './stack';
import {
  fact,
  headerSignIn,
  logIn,
  navLink,
  signInFromHeader,
  snap,
  userName,
  watchProvider,
} from './support';

test('3. sign out → provider logout → /signed-out; the back button does not bring the session back', async ({
  page,
}) => {
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await page.goto('/dashboard');
  await expect(fact(page, 'Subject')).toHaveText('alice');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${e2e.app}/signed-out`);
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expect(headerSignIn(page)).toBeVisible();
  await snap(page, 'signed-out');

  // Back through the provider's logout pages (one submits itself) towards the dashboard.
  const dashboard = `${e2e.app}/dashboard`;
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  const answered: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(e2e.api) && response.ok()) answered.push(response.url());
  });
  for (let step = 0; step < 4 && !visited.includes(dashboard); step += 1) {
    await page.goBack({ waitUntil: 'commit', timeout: 5_000 }).catch(() => null);
    await page.waitForTimeout(500);
  }
  // The back button reached the dashboard, which asks for a sign-in again: the session did not
  // come back, and the API answered nothing.
  expect(visited).toContain(dashboard);
  await expect(page).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await expect(page.getByLabel('Password')).toBeVisible();
  expect(answered).toEqual([]);
  // And the app, opened again, is signed out.
  await page.goto('/');
  await expect(headerSignIn(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});

test('7. with 20-second access tokens, 60 seconds of API calls: no failure, no sign-out, renewals seen', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const provider = watchProvider(page);
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await navLink(page, 'Dashboard').click();
  await expect(fact(page, 'Subject')).toHaveText('alice');
  const started = Date.now();
  let calls = 1;
  while (Date.now() - started < 60_000) {
    await page.waitForTimeout(2000);
    const answered = page.waitForResponse((response) => response.url() === `${e2e.api}/me`);
    await page.getByRole('button', { name: 'Call the API again' }).click();
    expect((await answered).status()).toBe(200);
    calls += 1;
    await expect(fact(page, 'Subject')).toHaveText('alice');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(userName(page, 'Alice Liddell')).toBeVisible();
  }
  expect(calls).toBeGreaterThanOrEqual(25);
  // 20-second tokens renewed 10 s before expiry, at most one token request per 10 s: about six
  // renewals in a minute.
  expect(provider.refreshes()).toBeGreaterThanOrEqual(5);
  expect(provider.authorizations()).toBe(1);
  console.log(
    `${calls} API calls, ${provider.refreshes()} renewals in ${Math.round((Date.now() - started) / 1000)} s`,
  );
});

test('8. tabs share the session: open, sign out and sign in reach the other tab', async ({
  page,
  context,
}) => {
  await signInFromHeader(page, 'alice', 'Alice Liddell');

  const second = await context.newPage();
  const secondProvider = watchProvider(second);
  await second.goto('/');
  await expect(userName(second, 'Alice Liddell')).toBeVisible({ timeout: 2000 });
  expect(secondProvider.requests).toEqual([]);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(second.getByRole('button', { name: 'Sign out' })).toHaveCount(0, { timeout: 2000 });
  await expect(headerSignIn(second)).toBeVisible({ timeout: 2000 });
  await snap(second, 'second-tab-signed-out');

  await expect(page).toHaveURL(`${e2e.app}/signed-out`);
  await headerSignIn(page).click();
  await logIn(page, 'bob');
  await expect(userName(page, 'Bob Stone')).toBeVisible();
  await expect(userName(second, 'Bob Stone')).toBeVisible({ timeout: 2000 });
});
