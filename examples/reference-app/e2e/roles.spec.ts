import { expect, test } from '@playwright/test';
import { e2e } from './stack';
import { fact, navLink, signInFromHeader, snap, watchConsole, watchProvider } from './support';

test('4. alice on /admin sees Forbidden and is not sent to sign in', async ({ page }) => {
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  const provider = watchProvider(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
  await expect(page).toHaveURL(`${e2e.app}/admin`);
  expect(provider.authorizations()).toBe(0);
  await snap(page, 'admin-forbidden');
});

test('4. bob sees the admin page and the /admin/stats data', async ({ page }) => {
  const problems = watchConsole(page);
  await signInFromHeader(page, 'bob', 'Bob Stone');
  await navLink(page, 'Admin').click();
  await expect(page.getByRole('heading', { name: 'Admin', exact: true })).toBeVisible();
  await expect(fact(page, 'API uptime')).toHaveText(/^\d+ s$/);
  const requests = fact(page, 'Authenticated requests');
  await expect(requests).toHaveText(/^\d+$/);
  const before = Number(await requests.textContent());
  await snap(page, 'admin');
  // "Load again" runs the loader, which calls the API with the token once more.
  await page.getByRole('button', { name: 'Load again' }).click();
  await expect(requests).toHaveText(String(before + 1));
  // A direct load of /admin runs the loader guard before anything renders.
  await page.goto('/admin');
  await expect(fact(page, 'Distinct users')).toHaveText(/^\d+$/);
  expect(problems).toEqual([]);
});

test('a 404 page for unknown paths', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await snap(page, 'not-found');
});
