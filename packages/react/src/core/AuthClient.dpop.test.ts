import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createHarness, landInPopup, newStorage, stubPopup } from '../../test/support/harness';
import { IndexedDbDPoPStore } from 'oidc-client-ts';
import type { DPoPState } from 'oidc-client-ts';
import { createAuthFetch } from './createAuthFetch';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import type { AuthClient } from './AuthClient';
import type { FakeProviderOptions } from '../../test/support/FakeProvider';

// IndexedDB is the origin's: every client of a test ("tab") shares it, as tabs do; a test starts
// with an empty one.
beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
});

let harness: Harness;
afterEach(() => harness?.dispose());

const dpopProvider: FakeProviderOptions = { dpop: true };

/** The DPoP key pairs kept in IndexedDB, by name. */
async function storedKeys(): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('oidc');
    request.onupgradeneeded = () => request.result.createObjectStore('dpop');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
    const request = db.transaction('dpop', 'readonly').objectStore('dpop').getAllKeys();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return keys.map(String);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

async function signedIn(
  providerOptions: FakeProviderOptions = dpopProvider,
  dpop: boolean | 'auto' = true,
) {
  // A copy: tests change their provider's options (unreachable, …), never the shared ones.
  harness = createHarness({ ...providerOptions });
  const storage = newStorage();
  const { client } = await harness.signIn(harness.createClient({ config: { dpop } }), {
    storage,
    config: { dpop },
  });
  return { client, storage };
}

function requestsTo(endpoint: string) {
  return harness.provider.requests.filter((request) => request.endpoint === endpoint);
}

/** Signs in on `opener` through a popup, whose page lands on the callback with `dpop: true`. */
async function popupSignIn(opener: AuthClient) {
  const { authorizeUrl } = stubPopup();
  const signingIn = opener.signIn({ popup: true });
  const callback = harness.provider.authorize(await authorizeUrl());
  const { deliver } = landInPopup(callback);
  await harness.createClient({ storage: newStorage(), config: { dpop: true } }).start();
  deliver();
  await signingIn;
}

describe('DPoP (RFC 9449) with a provider that advertises it', () => {
  test('the code exchange carries a proof, and the tokens come back bound (token_type DPoP)', async () => {
    const { client } = await signedIn();
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user?.token_type).toBe('DPoP');
    const [exchange] = requestsTo('token');
    expect(exchange?.proof).toMatchObject({
      htm: 'POST',
      htu: `${harness.provider.issuer}/token`,
    });
    expect(await storedKeys()).toHaveLength(1);
  });

  test('the authenticated fetch sends the DPoP scheme and a proof of this request (htm, htu without query, ath)', async () => {
    const { client } = await signedIn();
    const token = client.getSnapshot().user?.access_token as string;
    const response = await client.fetch(`${harness.provider.apiOrigin}/orders/7?page=2#top`, {
      method: 'DELETE',
    });
    expect(response.status).toBe(200);
    const [call] = requestsTo('api');
    expect(call?.authorization).toBe(`DPoP ${token}`);
    expect(call?.proof).toMatchObject({
      htm: 'DELETE',
      htu: `${harness.provider.apiOrigin}/orders/7`,
      ath: sha256(token),
      jkt: requestsTo('token')[0]?.proof?.jkt,
    });
    expect(call?.proof?.nonce).toBeUndefined();
  });

  test("htm is the method as fetch sends it: the six standard methods upper-cased, others as written ('patch')", async () => {
    const { client } = await signedIn();
    const response = await client.fetch(`${harness.provider.apiOrigin}/orders/7`, {
      method: 'patch',
    });
    // The API refuses a proof whose htm is not the request's method (RFC 9449 §4.3).
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]).toMatchObject({ method: 'patch', proof: { htm: 'patch' } });
    const headers = await client.getAuthHeaders(`${harness.provider.apiOrigin}/a`, {
      method: 'delete',
    });
    expect(decodeJwt(headers?.DPoP as string)).toMatchObject({ htm: 'DELETE' });
  });

  test('each request gets a proof of its own (a new jti), the same key', async () => {
    const { client } = await signedIn();
    await client.fetch(`${harness.provider.apiOrigin}/a`);
    await client.fetch(`${harness.provider.apiOrigin}/a`);
    const [first, second] = requestsTo('api');
    expect(first?.proof?.jti).toBeDefined();
    expect(second?.proof?.jti).not.toBe(first?.proof?.jti);
    expect(second?.proof?.jkt).toBe(first?.proof?.jkt);
  });

  test("a use_dpop_nonce challenge from the API is answered exactly once, and the origin's nonce is remembered", async () => {
    const { client } = await signedIn({ dpop: true, apiDpopNonce: true });
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`, {
      method: 'POST',
      body: 'a body the retry sends again',
    });
    expect(response.status).toBe(200);
    const calls = requestsTo('api');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.proof?.nonce).toBeUndefined();
    expect(calls[1]?.proof?.nonce).toBe(harness.provider.dpopNonces.api);
    // No renewal for a nonce challenge.
    expect(harness.provider.count('refresh')).toBe(0);

    await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(requestsTo('api')).toHaveLength(3);
    expect(requestsTo('api')[2]?.proof?.nonce).toBe(harness.provider.dpopNonces.api);
  });

  test('a nonce challenge written with spaces around = is answered too (RFC 9110 allows them)', async () => {
    const { client } = await signedIn({ dpop: true, apiDpopNonce: true });
    const original = harness.provider.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      if (response.status !== 401) return response;
      const headers = new Headers(response.headers);
      headers.set('WWW-Authenticate', 'DPoP error = "use_dpop_nonce"');
      return new Response(response.body, { status: 401, headers });
    });
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(requestsTo('api')[1]?.proof?.nonce).toBe(harness.provider.dpopNonces.api);
    expect(harness.provider.count('refresh')).toBe(0);
  });

  test('a 401 that names use_dpop_nonce only in its description is a token fault: one renewal', async () => {
    const { client } = await signedIn();
    await passTokenFloor();
    const original = harness.provider.fetch;
    let refused = false;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!refused && new Request(input, init).url.startsWith(harness.provider.apiOrigin)) {
        refused = true;
        return new Response(null, {
          status: 401,
          headers: {
            'WWW-Authenticate':
              'DPoP error="invalid_token", error_description="not use_dpop_nonce"',
          },
        });
      }
      return original(input, init);
    });
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(harness.provider.count('refresh')).toBe(1);
  });

  test('a 401 invalid_dpop_proof is no fault of the token: returned as is, with no renewal', async () => {
    const { client } = await signedIn();
    const api = vi.fn(
      async (_request: Request) =>
        new Response(null, {
          status: 401,
          headers: { 'WWW-Authenticate': 'DPoP error="invalid_dpop_proof", algs="ES256"' },
        }),
    );
    const authFetch = createAuthFetch(client, [harness.provider.apiOrigin], api as typeof fetch);
    const response = await authFetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(401);
    expect(api).toHaveBeenCalledTimes(1);
    expect(harness.provider.count('refresh')).toBe(0);
  });

  test('a redirect is not followed with the proof of another URL: it comes back as the answer, said in development', async () => {
    const { client } = await signedIn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = vi.fn(
      async (_request: Request) =>
        new Response(null, { status: 307, headers: { Location: 'https://elsewhere.test/me' } }),
    );
    const authFetch = createAuthFetch(client, [harness.provider.apiOrigin], api as typeof fetch);
    const response = await authFetch(`${harness.provider.apiOrigin}/old`);
    expect(api).toHaveBeenCalledTimes(1);
    // The browser does not follow it: the proof (htu) is for /old only.
    expect(api.mock.calls[0]?.[0].redirect).toBe('manual');
    expect(response.status).toBe(307);
    expect(harness.provider.count('refresh')).toBe(0);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/\/old answered with a redirect/));
  });

  test('the request keeps its referrer settings; a 304 is no redirect', async () => {
    const { client } = await signedIn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = vi.fn(async (_request: Request) => new Response(null, { status: 304 }));
    const authFetch = createAuthFetch(client, [harness.provider.apiOrigin], api as typeof fetch);
    const response = await authFetch(`${harness.provider.apiOrigin}/me`, {
      referrerPolicy: 'no-referrer',
      headers: { 'If-None-Match': '"v1"' },
    });
    expect(response.status).toBe(304);
    expect(api.mock.calls[0]?.[0].referrerPolicy).toBe('no-referrer');
    expect(warn).not.toHaveBeenCalled();
  });

  test("a request that asks for redirect: 'error' keeps it", async () => {
    const { client } = await signedIn();
    const api = vi.fn(async (_request: Request) => Response.json({ ok: true }));
    const authFetch = createAuthFetch(client, [harness.provider.apiOrigin], api as typeof fetch);
    await authFetch(`${harness.provider.apiOrigin}/me`, { redirect: 'error' });
    expect(api.mock.calls[0]?.[0].redirect).toBe('error');
  });

  test('a server that keeps answering use_dpop_nonce gets one retry, not a loop', async () => {
    const { client } = await signedIn({ dpop: true, apiDpopNonce: true });
    harness.provider.dpopNonces.api = 'rotates';
    const original = harness.provider.fetch;
    let calls = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      if (new Request(input, init).url.startsWith(harness.provider.apiOrigin)) {
        calls += 1;
        // A new nonce on every answer: the proof is always one nonce behind.
        harness.provider.dpopNonces.api = `rotates-${calls}`;
      }
      return response;
    });
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(401);
    expect(calls).toBe(2);
  });

  test('a nonce the server sends on the answer to the nonce retry is kept for the next request', async () => {
    const { client } = await signedIn();
    const nonces: unknown[] = [];
    const api = vi.fn(async (request: Request) => {
      const { nonce } = decodeJwt(request.headers.get('DPoP') as string);
      nonces.push(nonce);
      if (nonce === undefined) {
        return new Response(null, {
          status: 401,
          headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': 'n1' },
        });
      }
      // Each answer carries the nonce to use next (RFC 9449 §8.2).
      return Response.json({ ok: true }, { headers: { 'DPoP-Nonce': `${String(nonce)}+` } });
    });
    const authFetch = createAuthFetch(client, [harness.provider.apiOrigin], api as typeof fetch);
    expect((await authFetch(`${harness.provider.apiOrigin}/me`)).status).toBe(200);
    expect((await authFetch(`${harness.provider.apiOrigin}/me`)).status).toBe(200);
    expect(nonces).toEqual([undefined, 'n1', 'n1+']);
  });

  test('a refresh refused with use_dpop_nonce twice (the nonce changed again) leaves the token current', async () => {
    const { client } = await signedIn({ dpop: true, dpopNonce: true });
    const refreshToken = client.getSnapshot().user?.refresh_token as string;
    const answer = harness.provider.fetch;
    let rotating = true;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      // A provider whose nonce changes between the two attempts: both are refused before use.
      if (rotating && String(init?.body ?? '').includes('grant_type=refresh_token')) {
        harness.provider.dpopNonces.token = `tn-${Math.random()}`;
      }
      return answer(input, init);
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    await passTokenFloor();
    try {
      await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
      rotating = false;
      vi.setSystemTime(Date.now() + 11_000);
      const renewed = await client.renew();
      expect(renewed?.refresh_token).not.toBe(refreshToken);
      expect(harness.silentAuthorizations).toHaveLength(0);
      expect(harness.provider.reusedRefreshTokens).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a code refused with use_dpop_nonce twice (the nonce changed again) is token_exchange_failed naming it; in a popup, not network', async () => {
    harness = createHarness({ dpop: true, dpopNonce: true });
    const answer = harness.provider.fetch;
    // A provider whose nonce changes between the two attempts: both are refused before use.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(init?.body ?? '').includes('grant_type=authorization_code')) {
        harness.provider.dpopNonces.token = `tn-${Math.random()}`;
      }
      return answer(input, init);
    });
    const refusal = { providerError: 'use_dpop_nonce' };

    const waiting = harness.nextRedirect();
    void harness.createClient({ config: { dpop: true } }).signIn();
    history.replaceState(null, '', harness.provider.authorize(await waiting));
    const client = harness.createClient({ storage: newStorage(), config: { dpop: true } });
    await client.start();
    expect(requestsTo('token')).toHaveLength(2);
    expect(client.getSnapshot().error).toMatchObject({ code: 'token_exchange_failed', ...refusal });

    history.replaceState(null, '', '/');
    const opener = harness.createClient({ storage: newStorage(), config: { dpop: true } });
    await opener.start();
    await popupSignIn(opener);
    expect(requestsTo('token')).toHaveLength(4);
    expect(opener.getSnapshot().error).toMatchObject({ code: 'provider_error', ...refusal });
  });

  test("the provider's token-endpoint nonce is used for later token requests: the refresh token is presented once", async () => {
    const { client } = await signedIn({ dpop: true, dpopNonce: true });
    expect(client.getSnapshot().user?.token_type).toBe('DPoP');
    // The exchange was asked for the nonce once, then carried it.
    const exchanges = requestsTo('token');
    expect(exchanges).toHaveLength(2);
    expect(exchanges[1]?.proof?.nonce).toBe(harness.provider.dpopNonces.token);

    const refreshToken = client.getSnapshot().user?.refresh_token as string;
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(0));
    await passTokenFloor();
    const renewed = await client.renew();
    expect(renewed?.token_type).toBe('DPoP');
    expect(harness.provider.presentations(refreshToken)).toBe(1);
    const [refresh] = requestsTo('refresh');
    expect(refresh?.proof).toMatchObject({
      nonce: harness.provider.dpopNonces.token,
      jkt: exchanges[1]?.proof?.jkt,
    });
  });

  test('a nonce that comes with a successful token response is the one the next token request carries (RFC 9449 §8.2): each refresh token goes once', async () => {
    const { client } = await signedIn({ dpop: true, dpopNonce: true, dpopNonceRotates: true });
    vi.useFakeTimers({ toFake: ['Date'] });
    await passTokenFloor();
    try {
      // The first refresh follows the code exchange's answer, the second the first refresh's.
      for (const _ of ['after the exchange', 'after a refresh']) {
        const refreshToken = client.getSnapshot().user?.refresh_token as string;
        const nonce = harness.provider.dpopNonces.token;
        await client.renew();
        expect(harness.provider.presentations(refreshToken)).toBe(1);
        expect(requestsTo('refresh').at(-1)?.proof?.nonce).toBe(nonce);
        // Past the 10 s floor between a session's token requests.
        vi.setSystemTime(Date.now() + 11_000);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(requestsTo('refresh')).toHaveLength(2);
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
  });

  test('a nonce with tokens that IndexedDB fails to keep does not cost the answer (its refresh token is spent)', async () => {
    const { client } = await signedIn({ dpop: true, dpopNonceRotates: true });
    await passTokenFloor();
    const before = client.getSnapshot().user?.access_token;
    vi.spyOn(IndexedDbDPoPStore.prototype, 'set').mockRejectedValue(
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    const renewed = await client.renew();
    expect(renewed?.access_token).not.toBe(before);
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
  });

  test('a token endpoint with a query is proven without it: htu has no query (RFC 9449 §4.2), for the exchange and the refresh', async () => {
    const { client } = await signedIn({ dpop: true, tokenEndpointQuery: 'p=b2c_1_signin' });
    expect(requestsTo('token')[0]?.url).toBe(`${harness.provider.issuer}/token?p=b2c_1_signin`);
    expect(requestsTo('token')[0]?.proof?.htu).toBe(`${harness.provider.issuer}/token`);
    expect(client.getSnapshot().user?.token_type).toBe('DPoP');
    await passTokenFloor();
    await client.renew();
    expect(requestsTo('refresh')[0]?.proof?.htu).toBe(`${harness.provider.issuer}/token`);
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
  });

  test('a renewal is proven by the same key, and its tokens stay bound to it', async () => {
    const { client } = await signedIn();
    const jkt = requestsTo('token')[0]?.proof?.jkt;
    await passTokenFloor();
    await client.renew();
    expect(requestsTo('refresh')[0]?.proof?.jkt).toBe(jkt);
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]?.proof?.jkt).toBe(jkt);
  });

  test('a 401 for an expired token renews once (with a proof) and retries with a fresh proof', async () => {
    const { client } = await signedIn();
    await passTokenFloor();
    harness.provider.expireAccessTokens();
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(harness.provider.count('refresh')).toBe(1);
    const calls = requestsTo('api');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.proof?.ath).toBe(sha256(client.getSnapshot().user?.access_token as string));
  });
});

describe('a Bearer token where a proof was sent is a downgrade, refused (RFC 9449 §5)', () => {
  const downgrade = (fields: Record<string, unknown>) => ({ ...fields, token_type: 'Bearer' });

  test('dpop true: a code exchange answered with token_type Bearer is token_exchange_failed, nothing stored', async () => {
    const dpop = true;
    harness = createHarness({ ...dpopProvider, tokenResponse: downgrade });
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient({ config: { dpop } }), {
      storage,
      config: { dpop },
    });
    expect(requestsTo('token')[0]?.proof).toMatchObject({ htm: 'POST' });
    expect(client.getSnapshot()).toMatchObject({
      status: 'error',
      user: null,
      error: { code: 'token_exchange_failed' },
    });
    expect(await storedKeys()).toEqual([]);
  });

  // §5: a provider may issue Bearer tokens to a proof, binding the refresh token alone; the client
  // must refuse them only when it deems DPoP's protection important, as `dpop: true` says.
  test("dpop 'auto': a provider that answers a proof with Bearer tokens (RFC 9449 §5) gives a Bearer session, refreshed with proofs", async () => {
    const { client } = await signedIn({ ...dpopProvider, tokenResponse: downgrade }, 'auto');
    expect(requestsTo('token')[0]?.proof).toMatchObject({ htm: 'POST' });
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    expect(client.getSnapshot().user?.token_type).toBe('Bearer');
    const first = client.getSnapshot().user?.access_token;
    await passTokenFloor();
    await client.renew();
    expect(requestsTo('refresh')[0]?.proof).toMatchObject({ htm: 'POST' });
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    expect(client.getSnapshot().user?.access_token).not.toBe(first);
  });

  test.each([true, 'auto'] as const)(
    'dpop %s: a bound session whose refresh is answered with token_type Bearer does not become a Bearer session',
    async (dpop) => {
      const { client } = await signedIn(dpopProvider, dpop);
      await passTokenFloor();
      const bound = client.getSnapshot().user?.access_token;
      harness.provider.options.tokenResponse = downgrade;
      await client.renew().catch(() => undefined);
      expect(requestsTo('refresh')).toHaveLength(1);
      const { user } = client.getSnapshot();
      expect(user?.token_type ?? null).not.toBe('Bearer');
      expect(user === null || user.access_token === bound).toBe(true);
      await client.fetch(`${harness.provider.apiOrigin}/me`);
      expect(requestsTo('api').every((call) => !call.authorization?.startsWith('Bearer '))).toBe(
        true,
      );
    },
  );
});

describe('DPoP with every way of getting tokens', () => {
  test('a popup sign-in: the opener exchanges the code with a proof', async () => {
    harness = createHarness({ ...dpopProvider });
    const opener = harness.createClient({ config: { dpop: true } });
    await opener.start();
    await popupSignIn(opener);
    expect(opener.getSnapshot().user?.token_type).toBe('DPoP');
    expect(requestsTo('token')[0]?.proof?.htu).toBe(`${harness.provider.issuer}/token`);
    expect(await storedKeys()).toHaveLength(1);
  });

  test('a silent renewal (no refresh token): the code exchange is proven by the session key', async () => {
    const { client, storage } = await signedIn();
    const jkt = requestsTo('token')[0]?.proof?.jkt;
    client.dispose();
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index) as string;
      const user = JSON.parse(storage.getItem(key) as string) as Record<string, unknown>;
      delete user.refresh_token;
      storage.setItem(key, JSON.stringify(user));
    }
    history.replaceState(null, '', '/dashboard');
    const tab = harness.createClient({ storage, config: { dpop: true } });
    await tab.start();
    await passTokenFloor();
    const renewed = await tab.renew();
    expect(harness.silentAuthorizations).toHaveLength(1);
    expect(renewed?.token_type).toBe('DPoP');
    expect(requestsTo('token')[1]?.proof?.jkt).toBe(jkt);
  });
  // A spec-following provider's userinfo endpoint refuses a bound token sent as Bearer (RFC 9449
  // §7.1; oidc-provider: "failed jkt verification"), which oidc-client-ts does on its own.
  test.each([true, 'auto'] as const)(
    'loadUserInfo with dpop %s: userinfo gets the DPoP scheme and a proof, at sign-in and on renewal',
    async (dpop) => {
      harness = createHarness({ ...dpopProvider });
      const config = { dpop, loadUserInfo: true };
      const { client } = await harness.signIn(harness.createClient({ config }), { config });
      expect(client.getSnapshot().status).toBe('authenticated');
      await passTokenFloor();
      await client.renew();
      expect(client.getSnapshot().error).toBeNull();
      const calls = requestsTo('userinfo');
      expect(calls).toHaveLength(2);
      const tokens = [requestsTo('token')[0], requestsTo('refresh')[0]];
      calls.forEach((call, index) => {
        const token = (call.authorization ?? '').replace(/^DPoP /, '');
        expect(call.authorization).toBe(`DPoP ${token}`);
        expect(call.proof).toMatchObject({
          htm: 'GET',
          htu: `${harness.provider.issuer}/userinfo`,
          ath: sha256(token),
          jkt: tokens[index]?.proof?.jkt,
        });
      });
      expect(client.getSnapshot().user?.profile.email).toBe('alice@example.com');
    },
  );
});

describe('the key pair: one per session, kept across reloads, gone at sign-out', () => {
  test('created once: sign-in, API calls and renewals use one key', async () => {
    const { client } = await signedIn();
    await client.fetch(`${harness.provider.apiOrigin}/me`);
    await passTokenFloor();
    await client.renew();
    await client.fetch(`${harness.provider.apiOrigin}/me`);
    const thumbprints = new Set(
      harness.provider.requests.flatMap((request) => request.proof?.jkt ?? []),
    );
    expect(thumbprints.size).toBe(1);
    expect(await storedKeys()).toHaveLength(1);
  });

  test('the key is not extractable', async () => {
    await signedIn();
    const [name] = await storedKeys();
    const db = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('oidc');
      request.onsuccess = () => resolve(request.result);
    });
    const state = await new Promise<{ keys: CryptoKeyPair }>((resolve) => {
      const request = db
        .transaction('dpop')
        .objectStore('dpop')
        .get(name as string);
      request.onsuccess = () => resolve(request.result as { keys: CryptoKeyPair });
    });
    db.close();
    expect(state.keys.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', state.keys.privateKey)).rejects.toThrow();
  });

  test('a reload keeps the session and its key: the next call is proven by the same key', async () => {
    const { client, storage } = await signedIn();
    const jkt = requestsTo('token')[0]?.proof?.jkt;
    client.dispose();
    history.replaceState(null, '', '/dashboard');
    const reloaded = harness.createClient({ storage, config: { dpop: true } });
    await reloaded.start();
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    const response = await reloaded.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]?.proof?.jkt).toBe(jkt);
    await passTokenFloor();
    await reloaded.renew();
    expect(requestsTo('refresh')[0]?.proof?.jkt).toBe(jkt);
  });

  test('another tab shares the session and proves with the same key', async () => {
    const { client } = await signedIn();
    history.replaceState(null, '', '/dashboard');
    const second = harness.createClient({ storage: newStorage(), config: { dpop: true } });
    await second.start();
    expect(second.getSnapshot().status).toBe('authenticated');
    const response = await second.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]?.proof?.jkt).toBe(requestsTo('token')[0]?.proof?.jkt);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('sign-out deletes the key, for every tab; the next sign-in makes a new one', async () => {
    const { client } = await signedIn();
    const jkt = requestsTo('token')[0]?.proof?.jkt;
    history.replaceState(null, '', '/dashboard');
    const second = harness.createClient({ storage: newStorage(), config: { dpop: true } });
    await second.start();
    await client.signOut({ redirect: false });
    expect(await storedKeys()).toEqual([]);
    await vi.waitFor(() => expect(second.getSnapshot().status).toBe('unauthenticated'));
    expect(await second.getAuthHeaders(`${harness.provider.apiOrigin}/me`)).toBeNull();

    history.replaceState(null, '', '/');
    await harness.signIn(harness.createClient({ config: { dpop: true } }), {
      config: { dpop: true },
    });
    const exchanges = requestsTo('token');
    expect(exchanges).toHaveLength(2);
    expect(exchanges[1]?.proof?.jkt).not.toBe(jkt);
    expect(await storedKeys()).toHaveLength(1);
  });

  test('a session the provider ended (invalid_grant) leaves no key behind', async () => {
    const { client } = await signedIn();
    await passTokenFloor();
    harness.provider.revokeAllGrants();
    await client.renew();
    expect(client.getSnapshot().error?.code).toBe('session_expired');
    expect(await storedKeys()).toEqual([]);
  });

  test('a key that is gone (site data cleared) ends the session with session_expired, it sends no proofless token', async () => {
    const { client } = await signedIn();
    vi.stubGlobal('indexedDB', new IDBFactory());
    await expect(client.fetch(`${harness.provider.apiOrigin}/me`)).rejects.toMatchObject({
      code: 'session_expired',
    });
    expect(requestsTo('api')).toHaveLength(0);
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('session_expired');
  });
});

describe('dpop settings', () => {
  test("'auto' with a provider that does not advertise DPoP: plain Bearer tokens, no proof, no key", async () => {
    const { client } = await signedIn({}, 'auto');
    expect(client.getSnapshot().user?.token_type).toBe('Bearer');
    await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(requestsTo('api')[0]?.authorization).toMatch(/^Bearer /);
    expect(harness.provider.requests.every((request) => request.proof === null)).toBe(true);
    expect(await storedKeys()).toEqual([]);
  });

  test("'auto' with a provider that advertises DPoP: bound tokens", async () => {
    const { client } = await signedIn(dpopProvider, 'auto');
    expect(client.getSnapshot().user?.token_type).toBe('DPoP');
  });

  test('true with a provider that does not advertise DPoP: config_invalid naming dpop, before leaving for the provider', async () => {
    harness = createHarness();
    const client = harness.createClient({ config: { dpop: true } });
    await client.start();
    await client.signIn();
    expect(harness.redirects).toEqual([]);
    expect(client.getSnapshot().status).toBe('error');
    expect(client.getSnapshot().error).toMatchObject({ code: 'config_invalid', field: 'dpop' });
    expect(client.getSnapshot().error?.message).toMatch(/does not advertise DPoP/);
  });

  test('off by default: no proofs even where the provider advertises DPoP', async () => {
    harness = createHarness({ ...dpopProvider });
    const { client } = await harness.signIn(harness.createClient());
    expect(client.getSnapshot().user?.token_type).toBe('Bearer');
    expect(harness.provider.requests.every((request) => request.proof === null)).toBe(true);
  });

  test('anything but true, false or auto is refused', () => {
    harness = createHarness();
    expect(() => harness.createClient({ config: { dpop: 'yes' as unknown as boolean } })).toThrow(
      expect.objectContaining({ code: 'config_invalid', field: 'dpop' }),
    );
  });
});

describe('getAuthHeaders, for requests the authenticated fetch does not make', () => {
  test('DPoP: the scheme and a proof for this URL and method, with a nonce when given', async () => {
    const { client } = await signedIn();
    const token = client.getSnapshot().user?.access_token as string;
    const headers = await client.getAuthHeaders(`${harness.provider.apiOrigin}/upload?x=1`, {
      method: 'put',
      nonce: 'server-nonce',
    });
    expect(headers?.Authorization).toBe(`DPoP ${token}`);
    const response = await fetch(`${harness.provider.apiOrigin}/upload`, {
      method: 'PUT',
      headers: headers ?? {},
    });
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]?.proof).toMatchObject({
      htm: 'PUT',
      htu: `${harness.provider.apiOrigin}/upload`,
      nonce: 'server-nonce',
      ath: sha256(token),
    });
  });

  test('Bearer without DPoP; null when signed out', async () => {
    harness = createHarness();
    const signedOut = harness.createClient();
    await signedOut.start();
    expect(await signedOut.getAuthHeaders('/api/me')).toBeNull();
    const { client } = await harness.signIn(harness.createClient());
    expect(await client.getAuthHeaders('/api/me')).toEqual({
      Authorization: `Bearer ${client.getSnapshot().user?.access_token}`,
    });
  });

  test('a relative URL is proven as the page resolves it; the method defaults to GET', async () => {
    const { client } = await signedIn();
    history.replaceState(null, '', '/orders/');
    const headers = await client.getAuthHeaders('items?page=2');
    expect(decodeJwt(headers?.DPoP as string)).toMatchObject({
      htm: 'GET',
      htu: `${location.origin}/orders/items`,
    });
  });

  test('a relative URL is proven against the document’s base URL (`<base href>`), where fetch sends it', async () => {
    const { client } = await signedIn();
    const base = document.createElement('base');
    base.href = `${harness.provider.apiOrigin}/v1/`;
    document.head.append(base);
    try {
      const headers = await client.getAuthHeaders('items');
      expect(decodeJwt(headers?.DPoP as string)).toMatchObject({
        htu: `${harness.provider.apiOrigin}/v1/items`,
      });
    } finally {
      base.remove();
    }
  });
});

describe('fail closed: a bound token never goes without its proof', () => {
  test('createAuthFetch(client, origins), as documented, sends DPoP with a proof', async () => {
    const { client } = await signedIn();
    const authFetch = createAuthFetch(client, [harness.provider.apiOrigin]);
    const response = await authFetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]?.authorization).toMatch(/^DPoP /);
    expect(requestsTo('api')[0]?.proof).not.toBeNull();
  });

  test('a nonce retry after the session ended in between is not sent at all (no Bearer fallback)', async () => {
    const { client } = await signedIn({ dpop: true, apiDpopNonce: true });
    const original = harness.provider.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      if (response.status === 401) await client.signOut({ redirect: false });
      return response;
    });
    await expect(client.fetch(`${harness.provider.apiOrigin}/me`)).rejects.toMatchObject({
      code: 'session_expired',
    });
    const calls = requestsTo('api');
    expect(calls).toHaveLength(1);
    expect(calls.every((call) => call.authorization?.startsWith('DPoP ') === true)).toBe(true);
    // The sign-out stands as it was: not turned into an expiry by the failed retry.
    expect(client.getSnapshot()).toMatchObject({
      status: 'unauthenticated',
      signOutReason: 'user',
    });
  });

  test('after a reload, a bound session calls its API while the provider is unreachable', async () => {
    const { client, storage } = await signedIn();
    client.dispose();
    history.replaceState(null, '', '/dashboard');
    harness.provider.options.unreachable = true;
    const reloaded = harness.createClient({ storage, config: { dpop: 'auto' } });
    await reloaded.start();
    const response = await reloaded.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(requestsTo('api')[0]?.proof).not.toBeNull();
  });

  test('a bound session whose key is gone ends at its next renewal without sending its refresh token', async () => {
    const { client } = await signedIn();
    const refreshToken = client.getSnapshot().user?.refresh_token as string;
    vi.stubGlobal('indexedDB', new IDBFactory());
    await client.renew();
    expect(harness.provider.presentations(refreshToken)).toBe(0);
    expect(client.getSnapshot()).toMatchObject({ status: 'unauthenticated' });
    expect(client.getSnapshot().error?.code).toBe('session_expired');
    expect(await storedKeys()).toEqual([]);
  });

  test('a refresh refused with a DPoP-Nonce is not sent again: the refresh token goes once', async () => {
    const { client } = await signedIn({ dpop: true, dpopNonceOnErrors: true });
    await passTokenFloor();
    const token = client.getSnapshot().user?.refresh_token as string;
    harness.provider.revokeAllGrants();
    await client.renew();
    expect(harness.provider.presentations(token)).toBe(1);
    expect(client.getSnapshot().error?.code).toBe('session_expired');
  });

  test('a code refused with a DPoP-Nonce is not sent again', async () => {
    harness = createHarness({ dpop: true, dpopNonceOnErrors: true });
    const waiting = harness.nextRedirect();
    void harness.createClient({ config: { dpop: true } }).signIn();
    const callback = new URL(harness.provider.authorize(await waiting));
    callback.searchParams.set('code', 'forged');
    history.replaceState(null, '', callback.toString());
    const client = harness.createClient({ storage: newStorage(), config: { dpop: true } });
    await client.start();
    expect(requestsTo('token')).toHaveLength(1);
    expect(client.getSnapshot().error).toMatchObject({
      code: 'token_exchange_failed',
      providerError: 'invalid_grant',
    });
  });

  test('an invalid_grant that carries a DPoP-Nonce (as oidc-provider sends) still ends the session', async () => {
    const { client } = await signedIn({ dpop: true, dpopNonceOnErrors: true });
    await passTokenFloor();
    harness.provider.revokeAllGrants();
    await client.renew();
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('session_expired');
  });
});

/** An `indexedDB` whose `open` requests fail as `name` (`DOMException`), as a browser reports it. */
function failingOpen(name: string) {
  return {
    open: vi.fn(() => {
      const request = { error: null as DOMException | null, onerror: null as (() => void) | null };
      setTimeout(() => {
        request.error = new DOMException('The database cannot be opened.', name);
        request.onerror?.();
      });
      return request;
    }),
  };
}

/** Browsers where `indexedDB` is there but no database opens. */
const unopenable: [string, () => unknown][] = [
  ['indexedDB is null (IndexedDB turned off)', () => null],
  [
    'open() throws SecurityError (site data blocked)',
    () => ({
      open: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    }),
  ],
  [
    'open() fails with InvalidStateError (an older Firefox private window)',
    () => failingOpen('InvalidStateError'),
  ],
  ['open() fails with UnknownError (a corrupt profile)', () => failingOpen('UnknownError')],
];

describe('where there is no IndexedDB, or it cannot be opened (some private windows)', () => {
  test("'auto' goes on with Bearer tokens", async () => {
    vi.stubGlobal('indexedDB', undefined);
    const { client } = await signedIn(dpopProvider, 'auto');
    expect(client.getSnapshot().user?.token_type).toBe('Bearer');
    expect(harness.provider.requests.every((request) => request.proof === null)).toBe(true);
  });

  test('true is config_invalid naming dpop, before leaving for the provider', async () => {
    vi.stubGlobal('indexedDB', undefined);
    harness = createHarness({ ...dpopProvider });
    const client = harness.createClient({ config: { dpop: true } });
    await client.start();
    await client.signIn();
    expect(harness.redirects).toEqual([]);
    expect(client.getSnapshot().error).toMatchObject({ code: 'config_invalid', field: 'dpop' });
    expect(client.getSnapshot().error?.message).toMatch(/IndexedDB/);
  });

  test.each(unopenable)("'auto' goes on with Bearer tokens where %s", async (_, factory) => {
    vi.stubGlobal('indexedDB', factory());
    const { client } = await signedIn(dpopProvider, 'auto');
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    expect(client.getSnapshot().user?.token_type).toBe('Bearer');
    expect(harness.provider.requests.every((request) => request.proof === null)).toBe(true);
  });

  test.each(unopenable)(
    'true is config_invalid naming dpop, before leaving for the provider, where %s',
    async (_, factory) => {
      vi.stubGlobal('indexedDB', factory());
      harness = createHarness({ ...dpopProvider });
      const client = harness.createClient({ config: { dpop: true } });
      await client.start();
      const signingIn = client.signIn();
      // Not awaited at once: a sign-in that left for the provider waits for the page to go.
      await vi.waitFor(() => expect(client.getSnapshot().status).toBe('error'));
      await signingIn;
      expect(harness.redirects).toEqual([]);
      expect(client.getSnapshot().error).toMatchObject({ code: 'config_invalid', field: 'dpop' });
      expect(client.getSnapshot().error?.message).toMatch(/IndexedDB/);
    },
  );

  test.each([['auto' as const], [true]])(
    'dpop: %s, an open() that never answers counts as no IndexedDB after the timeout, before leaving for the provider',
    async (dpop) => {
      // Another connection's upgrade can hold an open request for as long as that page lives.
      vi.stubGlobal('indexedDB', { open: () => ({}) });
      harness = createHarness({ ...dpopProvider });
      const config = { dpop, timeout: 300 };
      const client = harness.createClient({ config });
      await client.start();
      const signingIn = client.signIn();
      if (dpop === true) {
        await vi.waitFor(() => expect(client.getSnapshot().status).toBe('error'));
        await signingIn;
        expect(harness.redirects).toEqual([]);
        expect(client.getSnapshot().error).toMatchObject({ code: 'config_invalid', field: 'dpop' });
        return;
      }
      // 'auto': the sign-in leaves with Bearer tokens once the probe has waited its timeout.
      await vi.waitFor(() => expect(harness.redirects).toHaveLength(1));
    },
  );

  test('the page tries to open IndexedDB once: the callback page does not try again', async () => {
    const factory = failingOpen('InvalidStateError');
    vi.stubGlobal('indexedDB', factory);
    const { client } = await signedIn(dpopProvider, 'auto');
    expect(client.getSnapshot().user?.token_type).toBe('Bearer');
    expect(factory.open).toHaveBeenCalledTimes(1);
  });
});

test('a new sign-in sweeps only its own client’s old keys, not those of a client whose id extends it', async () => {
  harness = createHarness({ ...dpopProvider });
  const store = new IndexedDbDPoPStore();
  const other = `oidc-kit:dpop:${harness.provider.issuer}:app:admin:some-session`;
  const stale = `oidc-kit:dpop:${harness.provider.issuer}:app:old-session`;
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]);
  await store.set(other, { keys } as DPoPState);
  await store.set(stale, { keys } as DPoPState);
  await harness.signIn(harness.createClient({ config: { dpop: true } }), {
    config: { dpop: true },
  });
  const left = await storedKeys();
  expect(left).toContain(other);
  expect(left).not.toContain(stale);
  expect(left).toHaveLength(2);
});

describe('a sign-in that fails after its proof leaves no key behind', () => {
  test('an ID token that fails its checks: no key pair stays in IndexedDB', async () => {
    harness = createHarness({
      ...dpopProvider,
      idTokenClaims: (claims) => ({ ...claims, aud: 'another-app' }),
    });
    const { client: landed } = await harness.signIn(
      harness.createClient({ config: { dpop: true } }),
      { config: { dpop: true } },
    );
    expect(landed.getSnapshot()).toMatchObject({ status: 'error', error: { check: 'aud' } });
    // The exchange did carry a proof: a key pair was made for it.
    expect(requestsTo('token')).toHaveLength(1);
    expect(requestsTo('token')[0]?.proof).toMatchObject({ htm: 'POST' });
    expect(await storedKeys()).toEqual([]);
  });

  test('a code the token endpoint refuses (invalid_grant): no key pair stays in IndexedDB', async () => {
    harness = createHarness({ ...dpopProvider });
    const starter = harness.createClient({ config: { dpop: true } });
    const waiting = harness.nextRedirect();
    void starter.signIn();
    const callback = new URL(harness.provider.authorize(await waiting));
    callback.searchParams.set('code', 'a-code-never-issued');
    history.replaceState(null, '', callback.toString());
    const landed = harness.createClient({ config: { dpop: true } });
    await landed.start();
    expect(landed.getSnapshot()).toMatchObject({
      status: 'error',
      error: { providerError: 'invalid_grant' },
    });
    expect(requestsTo('token')).toHaveLength(1);
    expect(requestsTo('token')[0]?.proof).toMatchObject({ htm: 'POST' });
    expect(await storedKeys()).toEqual([]);
  });

  test("'auto' with a provider without DPoP: a failed sign-in leaves IndexedDB alone", async () => {
    harness = createHarness({ idTokenClaims: (claims) => ({ ...claims, aud: 'another-app' }) });
    const open = vi.spyOn(indexedDB, 'open');
    const { client: landed } = await harness.signIn(
      harness.createClient({ config: { dpop: 'auto' } }),
      { config: { dpop: 'auto' } },
    );
    expect(landed.getSnapshot()).toMatchObject({ status: 'error', error: { check: 'aud' } });
    expect(requestsTo('token')[0]?.proof).toBeNull();
    expect(open).not.toHaveBeenCalled();
  });

  test('a signed-in session keeps its key when a later sign-in fails', async () => {
    const { client } = await signedIn();
    const [kept] = await storedKeys();
    harness.provider.options.idTokenClaims = (claims) => ({ ...claims, aud: 'another-app' });
    await harness.signIn(client, { config: { dpop: true } });
    // The first page left for the provider; its session's key is for its other tabs to use.
    expect(await storedKeys()).toEqual([kept]);
  });

  test('a popup step-up that fails in the signed-in tab: its key goes, the session and its key stay', async () => {
    const { client } = await signedIn();
    const [kept] = await storedKeys();
    const token = client.getSnapshot().user?.access_token;
    harness.provider.options.idTokenClaims = (claims) => ({ ...claims, aud: 'another-app' });
    await popupSignIn(client);
    // The popup's exchange went with a proof of a key of its own, which is gone.
    const exchanges = requestsTo('token').filter((request) => request.body?.has('code'));
    expect(exchanges).toHaveLength(2);
    expect(exchanges[1]?.proof?.jkt).not.toBe(exchanges[0]?.proof?.jkt);
    expect(await storedKeys()).toEqual([kept]);
    expect(client.getSnapshot()).toMatchObject({
      status: 'authenticated',
      error: { check: 'aud' },
    });
    expect(client.getSnapshot().user?.access_token).toBe(token);
    expect((await client.fetch(`${harness.provider.apiOrigin}/me`)).status).toBe(200);
  });
});
