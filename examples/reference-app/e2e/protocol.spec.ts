import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { BrowserContext, Page, Request } from '@playwright/test';
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

// The session protocol in real Chromium against the dev provider (oidc-provider), which rotates
// refresh tokens and revokes the whole grant when a used one comes back.

/** The refresh tokens every page of the context presents to the provider, in order. */
function recordRefreshTokens(context: BrowserContext): string[] {
  const presented: string[] = [];
  context.on('request', (request: Request) => {
    if (request.url() !== `${e2e.provider}/token`) return;
    const body = new URLSearchParams(request.postData() ?? '');
    if (body.get('grant_type') === 'refresh_token') presented.push(body.get('refresh_token') ?? '');
  });
  return presented;
}

/** The HTTP status of every refresh answer any page of the context receives, in order. */
function recordRefreshAnswers(context: BrowserContext): number[] {
  const statuses: number[] = [];
  context.on('response', (response) => {
    const body = response.request().postData() ?? '';
    if (response.url() === `${e2e.provider}/token` && body.includes('grant_type=refresh_token')) {
      statuses.push(response.status());
    }
  });
  return statuses;
}

function refreshAnswered(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.url() === `${e2e.provider}/token` &&
      (response.request().postData() ?? '').includes('grant_type=refresh_token'),
    { timeout: 40_000 },
  );
}

/** Records, in every page of the context, each message its tab channels send (`channelTraffic`). */
async function recordChannelTraffic(context: BrowserContext) {
  await context.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { channelTraffic: unknown[] }).channelTraffic = seen;
    const post = BroadcastChannel.prototype.postMessage;
    BroadcastChannel.prototype.postMessage = function (message: unknown) {
      seen.push(message);
      return post.call(this, message);
    };
  });
}

/** The refresh tokens the provider hands out to any page of the context, in order. */
function recordIssuedRefreshTokens(context: BrowserContext): string[] {
  const issued: string[] = [];
  context.on('response', async (response) => {
    if (response.url() !== `${e2e.provider}/token` || response.status() !== 200) return;
    const body = (await response.json().catch(() => ({}))) as { refresh_token?: string };
    if (body.refresh_token) issued.push(body.refresh_token);
  });
  return issued;
}

/**
 * Checks that none of `refreshTokens` is in what the page's tab channels sent (see
 * `recordChannelTraffic`) or in its web storage; returns what they sent, as JSON.
 */
async function expectNoRefreshTokenIn(page: Page, refreshTokens: string[]): Promise<string> {
  const traffic = await page.evaluate(() =>
    JSON.stringify((window as unknown as { channelTraffic: unknown[] }).channelTraffic),
  );
  const storage = await page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
  );
  for (const token of refreshTokens) {
    expect(traffic).not.toContain(token);
    expect(storage).not.toContain(token);
  }
  return traffic;
}

/** The memory-storage holder locks (see `holdRefreshToken`) the page's origin holds or waits for. */
function refreshLocks(page: Page) {
  return page.evaluate(async () => {
    const { held = [], pending = [] } = await navigator.locks.query();
    const names = (locks: LockInfo[]) =>
      locks.map((lock) => lock.name ?? '').filter((name) => name.startsWith('oidc-kit:refresh:'));
    return { held: names(held), pending: names(pending) };
  });
}

async function apiAnswersFor(page: Page, sub: string) {
  await navLink(page, 'Dashboard').click();
  await expect(fact(page, 'Subject')).toHaveText(sub);
}

test('a tab away on another site through 11 rotations in the other comes back without sending its stale token', async ({
  context,
}) => {
  const presented = recordRefreshTokens(context);
  const answers = recordRefreshAnswers(context);
  const active = await context.newPage();
  // The active tab's clock is ours to move, so eleven rotations take seconds, not minutes.
  await active.clock.install();
  await signInFromHeader(active, 'alice', 'Alice Liddell');

  const away = await context.newPage();
  await away.goto('/');
  await expect(userName(away, 'Alice Liddell')).toBeVisible();
  await away.goto(`${e2e.api}/health`);

  for (let rotation = 0; rotation < 11; rotation += 1) {
    const answered = refreshAnswered(active);
    await active.clock.fastForward(11_000);
    expect((await answered).status()).toBe(200);
  }
  expect(presented).toHaveLength(11);

  await away.goBack();
  await expect(userName(away, 'Alice Liddell')).toBeVisible();
  await apiAnswersFor(away, 'alice');
  await apiAnswersFor(active, 'alice');
  // The rotations go on, and the provider accepts each: no token came back, so the grant lives.
  await active.clock.fastForward(11_000);
  await expect.poll(() => answers.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(12);
  expect(answers.every((status) => status === 200)).toBe(true);
  expect(new Set(presented).size).toBe(presented.length);
});

test('a lost refresh answer: the token is not sent again, a silent authorize renews the session', async ({
  page,
  context,
}) => {
  const presented = recordRefreshTokens(context);
  let lost: string | null = null;
  await page.route(`${e2e.provider}/token`, async (route) => {
    const body = new URLSearchParams(route.request().postData() ?? '');
    if (lost !== null || body.get('grant_type') !== 'refresh_token') return route.continue();
    lost = body.get('refresh_token');
    // The provider does its work (the token rotates); the answer never reaches the page.
    await route.fetch();
    await route.abort('connectionreset');
  });
  const silent = page.waitForRequest(
    (request) =>
      request.url().startsWith(`${e2e.provider}/auth?`) &&
      new URL(request.url()).searchParams.get('prompt') === 'none',
    { timeout: 40_000 },
  );
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  await apiAnswersFor(page, 'alice');
  await silent;
  await expect.poll(() => presented.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  expect(lost).not.toBeNull();

  // The next renewal uses the new grant's token, and the provider accepts it.
  const answered = refreshAnswered(page);
  expect((await answered).status()).toBe(200);
  expect(presented.filter((token) => token === lost)).toHaveLength(1);
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  await page.getByRole('button', { name: 'Call the API again' }).click();
  await expect(fact(page, 'Subject')).toHaveText('alice');
});

test('a sign-out while the other tab is on another site: that tab comes back signed out', async ({
  context,
}) => {
  const first = await context.newPage();
  await signInFromHeader(first, 'alice', 'Alice Liddell');
  const away = await context.newPage();
  await away.goto('/dashboard');
  await expect(fact(away, 'Subject')).toHaveText('alice');
  await away.goto('/');
  await expect(userName(away, 'Alice Liddell')).toBeVisible();
  await away.goto(`${e2e.api}/health`);

  await first.getByRole('button', { name: 'Sign out' }).click();
  await expect(first).toHaveURL(`${e2e.app}/signed-out`);
  await expect(
    first.getByText('Your session has ended here and at your identity provider.'),
  ).toBeVisible();

  await away.goBack();
  await expect(away).toHaveURL(`${e2e.app}/`);
  await expect(headerSignIn(away)).toBeVisible();
  await expect(away.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await snap(away, 'away-tab-back-signed-out');
  // Its protected pages ask for a sign-in, and show nothing of the ended session.
  await away.goto('/dashboard');
  await expect(away).toHaveURL(new RegExp(`^${e2e.provider}/`));
});

/**
 * Alice signs in to the memory-storage build in a first tab; a second tab (`prepare`d before it
 * loads) opens her profile signed in, without going to the provider.
 */
async function memoryTabs(context: BrowserContext, prepare?: (page: Page) => Promise<void>) {
  const first = await context.newPage();
  await first.goto(e2e.memoryApp);
  await headerSignIn(first).click();
  await logIn(first, 'alice');
  await expect(userName(first, 'Alice Liddell')).toBeVisible();

  const second = await context.newPage();
  await prepare?.(second);
  const secondNavigations: string[] = [];
  second.on('framenavigated', (frame) => secondNavigations.push(frame.url()));
  await second.goto(`${e2e.memoryApp}/profile`);
  await expect(userName(second, 'Alice Liddell')).toBeVisible();
  await expect(second.getByRole('heading', { name: 'Profile' })).toBeVisible();
  expect(secondNavigations.filter((url) => url.startsWith(e2e.provider))).toEqual([]);
  return { first, second };
}

test("storage: 'memory': no refresh token in any tab message or web storage; the second tab is signed in without a login prompt", async ({
  context,
}) => {
  test.setTimeout(120_000);
  // Every message the tabs' channels send or receive, recorded in each page.
  await recordChannelTraffic(context);
  const refreshTokens = recordIssuedRefreshTokens(context);

  const { first, second } = await memoryTabs(context);

  // Both tabs through a renewal: the second renews through the first.
  const before = await second.evaluate(() => JSON.stringify(sessionStorage));
  await expect
    .poll(() => refreshTokens.length, { timeout: 40_000, intervals: [1000] })
    .toBeGreaterThanOrEqual(2);
  await expect(userName(second, 'Alice Liddell')).toBeVisible();

  expect(refreshTokens.length).toBeGreaterThan(0);
  for (const page of [first, second]) {
    const traffic = await expectNoRefreshTokenIn(page, refreshTokens);
    expect(traffic.length).toBeGreaterThan(2);
  }
  expect(before).not.toContain('refresh_token');
});

test("storage: 'memory': once the tab that holds the refresh token is closed, the other renews by a silent authorize at once", async ({
  context,
}) => {
  test.setTimeout(120_000);
  await recordChannelTraffic(context);
  const refreshTokens = recordIssuedRefreshTokens(context);

  // The second tab's clock is ours to move: its renewal starts when the test says (the tokens
  // live 20 s).
  const { first, second } = await memoryTabs(context, (page) => page.clock.install());

  // The first tab holds the session's refresh token, and the lock that says so; the second neither.
  const holder = `oidc-kit:refresh:${e2e.provider}:reference-app-e2e-memory:`;
  const { held, pending } = await refreshLocks(second);
  expect(held).toHaveLength(1);
  expect(held[0]?.startsWith(holder)).toBe(true);
  expect(pending).toEqual([]);
  await expectNoRefreshTokenIn(first, refreshTokens);
  await first.close();
  await expect.poll(() => refreshLocks(second)).toEqual({ held: [], pending: [] });

  // The second tab's renewal: no tab is left to ask, so it authorizes silently without waiting
  // for an answer (the wait would be the timeout + 1 s: 11 s).
  const provider = watchProvider(second);
  const sentBefore = await second.evaluate(
    () => (window as unknown as { channelTraffic: unknown[] }).channelTraffic.length,
  );
  const exchanged = second.waitForResponse(
    (response) =>
      response.url() === `${e2e.provider}/token` &&
      (response.request().postData() ?? '').includes('grant_type=authorization_code'),
    { timeout: 30_000 },
  );
  const started = Date.now();
  await second.clock.fastForward(11_000);
  expect((await exchanged).status()).toBe(200);
  const took = Date.now() - started;
  console.log(`The second tab renewed ${took} ms after its renewal was due.`);
  expect(took).toBeLessThan(5_000);
  const silent = provider.requests.filter((request) => new URL(request.url()).pathname === '/auth');
  expect(silent.map((request) => new URL(request.url()).searchParams.get('prompt'))).toEqual([
    'none',
  ]);
  expect(provider.refreshes()).toBe(0);
  const sentSince = await second.evaluate(
    (from) =>
      (window as unknown as { channelTraffic: { type?: string }[] }).channelTraffic
        .slice(from)
        .map((message) => message.type),
    sentBefore,
  );
  expect(sentSince).not.toContain('renew-request');

  // Still signed in; the second tab now holds a refresh token of its own, and the lock, and
  // neither its storage nor its channel has the token.
  await expect(userName(second, 'Alice Liddell')).toBeVisible();
  await expect(second.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect
    .poll(async () => (await refreshLocks(second)).held.map((name) => name.startsWith(holder)))
    .toEqual([true]);
  // It renews as the holder now: with the refresh token the silent authorize brought.
  const refreshed = refreshAnswered(second);
  await second.clock.fastForward(11_000);
  expect((await refreshed).status()).toBe(200);
  await expect(userName(second, 'Alice Liddell')).toBeVisible();
  // Sign-in, silent authorize, refresh: each brought a refresh token (read as its answer arrives).
  await expect.poll(() => refreshTokens.length).toBeGreaterThanOrEqual(3);
  await expectNoRefreshTokenIn(second, refreshTokens);
  // The API takes the access token the refresh brought (within the page: a reload would lose
  // the session, which only this tab's memory holds now).
  const token = (await (await refreshed).json()) as { access_token: string; token_type: string };
  const called = second.waitForRequest((request) => request.url() === `${e2e.api}/me`);
  await navLink(second, 'Dashboard').click();
  await expect(fact(second, 'Subject')).toHaveText('alice');
  expect((await called).headers().authorization).toBe(`${token.token_type} ${token.access_token}`);
});

test('neither the access token nor its proof follows an API redirect to another origin', async ({
  page,
}) => {
  // Another origin that records the Authorization and DPoP headers of whatever reaches it.
  const seen: (string | null)[] = [];
  const elsewhere = createServer((request, response) => {
    if (request.method !== 'OPTIONS') {
      seen.push(request.headers.authorization ?? null, request.headers.dpop?.toString() ?? null);
    }
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', 'Authorization');
    response.setHeader('Content-Type', 'application/json');
    response.end('{}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  const { port } = elsewhere.address() as AddressInfo;
  try {
    await page.route(`${e2e.api}/me`, (route) =>
      route.request().method() === 'OPTIONS'
        ? route.fallback()
        : route.fulfill({
            status: 307,
            headers: {
              Location: `http://127.0.0.1:${port}/collect`,
              'Access-Control-Allow-Origin': e2e.app,
              'Access-Control-Allow-Headers': 'Authorization',
            },
          }),
    );
    await signInFromHeader(page, 'alice', 'Alice Liddell');
    await navLink(page, 'Dashboard').click();
    // The tokens are DPoP-bound (the app's `dpop: 'auto'`): the request is not followed, since
    // its proof is for /me only, and the page says the call failed.
    await expect(
      page.getByRole('alert').filter({ hasText: 'The data could not be loaded' }),
    ).toBeVisible();
    expect(seen.every((header) => header === null)).toBe(true);
  } finally {
    elsewhere.close();
  }
});
