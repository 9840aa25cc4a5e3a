import { expect, test } from '@playwright/test';
import { e2e } from './stack';
import {
  headerSignIn,
  logIn,
  signInFromHeader,
  snap,
  watchConsole,
  watchProvider,
  navLink,
} from './support';

test('1. sign in from the header as alice; her name shows; a reload keeps her signed in', async ({
  page,
}) => {
  const problems = watchConsole(page);
  await page.goto('/');
  await snap(page, 'home-signed-out');
  await headerSignIn(page).click();
  await snap(page, 'provider-login');
  await logIn(page, 'alice');
  await expect(page.getByTestId('user-name')).toHaveText('Alice Liddell');
  await expect(page).toHaveURL(`${e2e.app}/`);
  await snap(page, 'home-signed-in');
  await page.reload();
  await expect(page.getByTestId('user-name')).toHaveText('Alice Liddell');
  expect(problems).toEqual([]);
});

test('2. /profile signed out → provider login → back on /profile, not /', async ({ page }) => {
  await page.goto('/profile');
  await logIn(page, 'alice');
  await expect(page).toHaveURL(`${e2e.app}/profile`);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'preferred_username' })).toBeVisible();
  await expect(page.getByTestId('seconds-left')).toHaveText(/^\d+$/);
  await snap(page, 'profile');
});

test('5. /dashboard shows the API’s answer for the signed-in user', async ({ page }) => {
  const problems = watchConsole(page);
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await navLink(page, 'Dashboard').click();
  await expect(page.getByTestId('api-sub')).toHaveText('alice');
  const answer = page.getByTestId('api-result');
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
  await expect(page.getByTestId('user-name')).toHaveText('Bob Stone');
  await page.waitForTimeout(300);
  expect(provider.requests.map((request) => request.url())).toEqual([]);
});
