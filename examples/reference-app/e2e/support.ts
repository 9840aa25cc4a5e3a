import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import type { BrowserContext, Page, Request } from '@playwright/test';
import { axeViolations } from '@oidc-kit/test-chromium';
import { e2e } from './stack';

/** Records the requests a page (or every page of a context) sends to the provider. */
export function watchProvider(source: Page | BrowserContext) {
  const requests: Request[] = [];
  const record = (request: Request) => {
    if (request.url().startsWith(e2e.provider)) requests.push(request);
  };
  // Two calls, one per type: TypeScript cannot pick an `on` overload on the union.
  if ('goto' in source) source.on('request', record);
  else source.on('request', record);
  const path = (request: Request) => new URL(request.url()).pathname;
  return {
    requests,
    clear: () => requests.splice(0),
    authorizations: () => requests.filter((request) => path(request) === '/auth').length,
    codeExchanges: () =>
      requests.filter(
        (request) =>
          path(request) === '/token' &&
          request.postData()?.includes('grant_type=authorization_code'),
      ).length,
    refreshes: () =>
      requests.filter(
        (request) =>
          path(request) === '/token' && request.postData()?.includes('grant_type=refresh_token'),
      ).length,
  };
}

/** Collects console errors and warnings, which normal use must not produce. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (!['error', 'warning'].includes(message.type())) return;
    // Only the app's pages, in each of its builds: the provider's are not ours.
    if (![e2e.app, e2e.memoryApp, e2e.idleApp].some((app) => page.url().startsWith(app))) return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** The header's Sign in button. */
export function headerSignIn(page: Page) {
  return page.getByRole('banner').getByRole('button', { name: 'Sign in' });
}

/**
 * Waits until the dev provider's login page has loaded. A click on Sign in resolves before the
 * redirect to the provider happens (the engine loads first), so a test must wait for this page
 * before it looks at it.
 */
export async function atProviderLogin(page: Page) {
  await expect(page).toHaveURL(new RegExp(`^${e2e.provider}/`));
  await expect(page.getByLabel('Username')).toBeVisible();
}

/** Fills in the dev provider's login page. */
export async function logIn(page: Page, username: string, password = username) {
  await atProviderLogin(page);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The signed-in user's name in the header. */
export function userName(page: Page, name: string) {
  return page.getByRole('banner').getByText(name, { exact: true });
}

/** The value beside `term` in a description list (the dashboard's and admin page's facts). */
export function fact(page: Page, term: string) {
  return page.getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]');
}

/** Signs in from the header and waits for the user's name. */
export async function signInFromHeader(page: Page, username: string, name: string) {
  await page.goto('/');
  await headerSignIn(page).click();
  await logIn(page, username);
  await expect(userName(page, name)).toBeVisible();
}

/**
 * Saves a screenshot to screenshots/e2e/ (git-ignored), for people to look at, and checks the
 * page with axe-core (WCAG 2.2 A/AA, colour contrast included): it must have no violation.
 */
export async function snap(page: Page, name: string) {
  mkdirSync('screenshots/e2e', { recursive: true });
  await page.screenshot({ path: `screenshots/e2e/${name}.png`, fullPage: true });
  expect(await axeViolations(page), `accessibility of ${name}`).toEqual([]);
}

/** A link in the header's main navigation. */
export function navLink(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
}

/** The relative luminance (WCAG 2.2) of a computed CSS colour, 0 for black to 1 for white. */
export function luminance(colour: string): number {
  const channels = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => Number(value) / 255);
  expect(channels, `a colour, ${colour}`).toHaveLength(3);
  const linear = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return [0.2126, 0.7152, 0.0722].reduce((sum, weight, i) => sum + weight * (linear[i] ?? 0), 0);
}
