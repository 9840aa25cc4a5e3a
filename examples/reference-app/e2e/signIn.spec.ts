import { expect, test } from '@playwright/test';
import { e2e } from './stack';
import {
  atProviderLogin,
  fact,
  headerSignIn,
  logIn,
  navLink,
  signInFromHeader,
  snap,
  userName,
  watchConsole,
  watchProvider,
} from './support';

test('1. sign in from the header as alice; her name shows; a reload keeps her signed in', async ({
  page,
}) => {
  const problems = watchConsole(page);
  await page.goto('/');
  await snap(page, 'home-signed-out');
  await headerSignIn(page).click();
  await atProviderLogin(page);
  await snap(page, 'provider-login');
  await logIn(page, 'alice');
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  await expect(page).toHaveURL(`${e2e.app}/`);
  await snap(page, 'home-signed-in');
  await page.reload();
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  expect(problems).toEqual([]);
});

test('2. /profile signed out → provider login → back on /profile, not /', async ({ page }) => {
  await page.goto('/profile');
  await logIn(page, 'alice');
  await expect(page).toHaveURL(`${e2e.app}/profile`);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'preferred_username' })).toBeVisible();
  await expect(page.getByText(/^Expires in \d+ seconds/)).toBeVisible();
  await snap(page, 'profile');
});

test('5. /dashboard shows the API’s answer for the signed-in user', async ({ page }) => {
  const problems = watchConsole(page);
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await navLink(page, 'Dashboard').click();
  await expect(fact(page, 'Subject')).toHaveText('alice');
  const answer = page.getByRole('region', { name: 'GET /me' });
  await expect(answer).toContainText('Alice Liddell');
  await expect(answer).toContainText('openid profile email');
  await snap(page, 'dashboard');
  expect(problems).toEqual([]);
});

test('10. exactly one token request per sign-in, and none on a reload with a valid session', async ({
  page,
}) => {
  const provider = watchProvider(page);
  await signInFromHeader(page, 'bob', 'Bob Stone');
  expect(provider.codeExchanges()).toBe(1);
  expect(provider.authorizations()).toBe(1);
  provider.clear();
  await page.reload();
  await expect(userName(page, 'Bob Stone')).toBeVisible();
  await page.waitForTimeout(300);
  expect(provider.requests.map((request) => request.url())).toEqual([]);
});

test('sign in in a popup: the page stays put, the popup closes, one code exchange', async ({
  page,
}) => {
  const problems = watchConsole(page);
  const provider = watchProvider(page.context()); // the page and its popup
  await page.goto('/');
  await page.evaluate(() => Object.assign(window, { e2eMarker: 'this page' }));
  const opening = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in in a popup' }).click();
  const popup = await opening;
  const popupProblems = watchConsole(popup);
  await atProviderLogin(popup);
  await snap(popup, 'popup-provider-login');
  await logIn(popup, 'alice');
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  await expect(page).toHaveURL(`${e2e.app}/`);
  // The same document: no reload, no redirect of this page.
  expect(await page.evaluate(() => (window as { e2eMarker?: string }).e2eMarker)).toBe('this page');
  expect(provider.codeExchanges()).toBe(1);
  await navLink(page, 'Dashboard').click();
  await expect(fact(page, 'Subject')).toHaveText('alice');
  expect(problems).toEqual([]);
  expect(popupProblems).toEqual([]);
});

test('closing the sign-in popup leaves the page signed out, with a way to try again', async ({
  page,
}) => {
  await page.goto('/');
  const opening = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in in a popup' }).click();
  const popup = await opening;
  await expect(popup).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await popup.close();
  await expect(page.getByRole('alert')).toContainText('closed');
  await expect(headerSignIn(page)).toBeEnabled();
  await expect(page).toHaveURL(`${e2e.app}/`);
  await snap(page, 'popup-closed');
  // "Try again" works: it signs in (by redirect).
  await page.getByRole('button', { name: 'Try again' }).click();
  await logIn(page, 'bob');
  await expect(userName(page, 'Bob Stone')).toBeVisible();
});

test('Cancel in the sign-in popup: the popup closes, the page says so and offers Try again', async ({
  page,
}) => {
  const problems = watchConsole(page);
  await page.goto('/');
  const opening = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in in a popup' }).click();
  const popup = await opening;
  await expect(popup).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(page.getByRole('alert')).toContainText('Sign-in was cancelled.');
  await expect(page).toHaveURL(`${e2e.app}/`);
  await snap(page, 'popup-cancelled');
  expect(problems).toEqual([]);
});
