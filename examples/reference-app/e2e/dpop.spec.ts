import { createHash, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { Page, Request } from '@playwright/test';
import { SignJWT, calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK } from 'jose';
import { generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import { e2e } from './stack';
import { fact, headerSignIn, logIn, signInFromHeader, userName, watchConsole } from './support';

const meUrl = `${e2e.api}/me`;

/** Opens the dashboard and returns its call to the API, as the browser sent it. */
async function dashboardCall(page: Page, open: () => Promise<unknown>): Promise<Request> {
  const sent = page.waitForRequest((request) => request.url() === meUrl);
  const answered = page.waitForResponse((response) => response.url() === meUrl);
  await open();
  const request = await sent;
  expect((await answered).status()).toBe(200);
  await expect(fact(page, 'Subject')).toHaveText('alice');
  return request;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** Calls the API from outside the browser, as a thief holding the token would. */
async function callApi(headers: Record<string, string>) {
  const response = await fetch(meUrl, { headers });
  return { status: response.status, challenge: response.headers.get('WWW-Authenticate') ?? '' };
}

test('DPoP: the dashboard’s API call carries a valid proof; a reload keeps the key; the token replayed elsewhere is refused', async ({
  page,
}) => {
  const problems = watchConsole(page);
  await signInFromHeader(page, 'alice', 'Alice Liddell');

  const first = await dashboardCall(page, () => page.goto('/dashboard'));
  const headers = await first.allHeaders();
  const [scheme, token = ''] = headers.authorization?.split(' ') ?? [];
  expect(scheme).toBe('DPoP');
  const proof = headers.dpop ?? '';
  const proofHeader = decodeProtectedHeader(proof);
  expect(proofHeader).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
  expect(decodeJwt(proof)).toMatchObject({ htm: 'GET', htu: meUrl, ath: sha256(token) });
  // The access token is bound to the proof's key.
  const jkt = await calculateJwkThumbprint(proofHeader.jwk as JWK);
  expect((decodeJwt(token).cnf as { jkt?: string } | undefined)?.jkt).toBe(jkt);

  // A reload: the same key pair, from IndexedDB.
  const again = await dashboardCall(page, () => page.reload());
  const reloaded = decodeProtectedHeader((await again.allHeaders()).dpop ?? '');
  expect(await calculateJwkThumbprint(reloaded.jwk as JWK)).toBe(jkt);

  // The captured token, used from here (Node), is refused every way.
  const bearer = await callApi({ Authorization: `Bearer ${token}` });
  expect(bearer.status).toBe(401);
  expect(bearer.challenge).toMatch(/^DPoP /);
  const noProof = await callApi({ Authorization: `DPoP ${token}` });
  expect(noProof.status).toBe(401);
  expect(noProof.challenge).toMatch(/^DPoP /);

  const thief = await generateKeyPair('ES256');
  const foreignProof = await new SignJWT({
    htm: 'GET',
    htu: meUrl,
    jti: randomUUID(),
    ath: sha256(token),
  })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: await exportJWK(thief.publicKey) })
    .setIssuedAt()
    .sign(thief.privateKey);
  const otherKey = await callApi({ Authorization: `DPoP ${token}`, DPoP: foreignProof });
  expect(otherKey.status).toBe(401);
  expect(otherKey.challenge).toMatch(/^DPoP error="invalid_dpop_proof"/);

  // The browser's own proof, sent again: its jti was seen.
  const replayed = await callApi({ Authorization: headers.authorization ?? '', DPoP: proof });
  expect(replayed.status).toBe(401);
  expect(replayed.challenge).toMatch(/^DPoP error="invalid_dpop_proof"/);

  // The page itself keeps working.
  await dashboardCall(page, () => page.getByRole('button', { name: 'Call the API again' }).click());
  expect(problems).toEqual([]);
});

/** The names of the DPoP key pairs kept in the page's IndexedDB (oidc-client-ts's `oidc` / `dpop`). */
function storedKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const opening = indexedDB.open('oidc');
        opening.onupgradeneeded = () => opening.result.createObjectStore('dpop');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const listing = opening.result.transaction('dpop').objectStore('dpop').getAllKeys();
          listing.onerror = () => reject(listing.error);
          listing.onsuccess = () => {
            opening.result.close();
            resolve(listing.result.map(String));
          };
        };
      }),
  );
}

async function proofKey(request: Request): Promise<string> {
  const header = decodeProtectedHeader((await request.allHeaders()).dpop ?? '');
  return calculateJwkThumbprint(header.jwk as JWK);
}

test('DPoP: a second tab proves with the session’s key, makes none of its own; sign-out deletes it for every tab', async ({
  page,
  context,
}) => {
  await signInFromHeader(page, 'alice', 'Alice Liddell');
  const jkt = await proofKey(await dashboardCall(page, () => page.goto('/dashboard')));
  const keys = await storedKeys(page);
  expect(keys).toHaveLength(1);

  const second = await context.newPage();
  expect(await proofKey(await dashboardCall(second, () => second.goto('/dashboard')))).toBe(jkt);
  expect(await storedKeys(second)).toEqual(keys);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${e2e.app}/signed-out`);
  await expect(headerSignIn(second)).toBeVisible();
  await expect.poll(() => storedKeys(second)).toEqual([]);

  // The next sign-in gets a key pair of its own.
  await headerSignIn(page).click();
  await logIn(page, 'alice');
  await expect(userName(page, 'Alice Liddell')).toBeVisible();
  expect(await proofKey(await dashboardCall(page, () => page.goto('/dashboard')))).not.toBe(jkt);
});
