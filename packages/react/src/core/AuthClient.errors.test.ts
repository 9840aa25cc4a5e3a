import { afterEach, describe, expect, test, vi } from 'vitest';
import { verifyIdTokenSignature } from '../verify-signature';
import {
  addressHasAuthParams,
  createHarness,
  landInPopup,
  newStorage,
  storedUsers,
  stubPopup,
} from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import type { FakeProviderOptions } from '../../test/support/FakeProvider';
import type { AuthClient } from './AuthClient';
import { isAuthError } from './errors';

let harness: Harness;
afterEach(() => harness?.dispose());

/** Signs in through the fake provider, letting `tamper` change the callback URL first. */
async function landOnCallback(
  options: FakeProviderOptions = {},
  tamper: (url: URL) => void = () => undefined,
  config: Record<string, unknown> = {},
) {
  harness = createHarness(options);
  const storage = newStorage();
  const starter = harness.createClient({ config });
  const waiting = harness.nextRedirect();
  void starter.signIn({ returnTo: '/orders' });
  const callback = new URL(harness.provider.authorize(await waiting));
  tamper(callback);
  history.replaceState(null, '', callback.toString());
  const client = harness.createClient({ storage, config });
  await client.start();
  return { client, storage };
}

function expectNothingLeft(storage: Storage) {
  expect(storedUsers(storage)).toEqual([]);
  expect(addressHasAuthParams()).toBe(false);
}

/** `client` refused the ID token at `check`: in error, no user, nothing stored. */
function expectIdTokenRefused(client: AuthClient, storage: Storage, check: string) {
  const { status, error, user } = client.getSnapshot();
  expect(status).toBe('error');
  expect(user).toBeNull();
  expect(isAuthError(error, 'id_token_invalid')).toBe(true);
  expect(error?.check).toBe(check);
  expectNothingLeft(storage);
}

describe('every ID-token check fails on its own, and nothing is stored', () => {
  const now = () => Math.floor(Date.now() / 1000);
  test.each([
    ['iss', (claims: Record<string, unknown>) => ({ ...claims, iss: 'https://evil.example' })],
    ['aud', (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-app' })],
    ['azp', (claims: Record<string, unknown>) => ({ ...claims, aud: ['app', 'api'] })],
    ['azp', (claims: Record<string, unknown>) => ({ ...claims, aud: ['app', 'api'], azp: 'api' })],
    ['azp', (claims: Record<string, unknown>) => ({ ...claims, azp: 'another-app' })],
    ['exp', (claims: Record<string, unknown>) => ({ ...claims, exp: now() - 61 })],
    ['exp', (claims: Record<string, unknown>) => ({ ...claims, exp: undefined })],
    // Issued well in the future: one second past the 60 s leeway can be gone by the time the
    // check runs on a loaded machine (the boundary itself is the leeway test below).
    ['iat', (claims: Record<string, unknown>) => ({ ...claims, iat: now() + 120 })],
    ['nonce', (claims: Record<string, unknown>) => ({ ...claims, nonce: 'not-the-one-sent' })],
    ['nonce', (claims: Record<string, unknown>) => ({ ...claims, nonce: undefined })],
    ['sub', (claims: Record<string, unknown>) => ({ ...claims, sub: undefined })],
  ])('%s', async (check, idTokenClaims) => {
    const { client, storage } = await landOnCallback({ idTokenClaims });
    expectIdTokenRefused(client, storage, check);
    expect(client.getSnapshot().error?.message).toContain(`\`${check}\``);
    expect(harness.navigations).toEqual(['/orders']);
  });

  // oidc-client-ts decodes the ID token before these checks run: one that is no JWT fails there.
  test.each([
    ['not a JWT', 'not-a-jwt'],
    ['a payload that is not JSON', 'eyJhbGciOiJub25lIn0.bm90IGpzb24.'],
    ['none at all', undefined],
  ])('format: %s', async (_, idToken) => {
    const { client, storage } = await landOnCallback({
      tokenResponse: ({ id_token: _sent, ...fields }) =>
        idToken === undefined ? fields : { ...fields, id_token: idToken },
    });
    expectIdTokenRefused(client, storage, 'format');
  });

  test('sub: a userinfo answer (loadUserInfo) for another user stores nothing', async () => {
    harness = createHarness();
    const answer = harness.provider.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(new Request(input, init).url).pathname === '/userinfo'
        ? Response.json({ sub: 'mallory', name: 'Mallory' })
        : answer(input, init),
    );
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), {
      storage,
      config: { loadUserInfo: true },
    });
    expectIdTokenRefused(client, storage, 'sub');
  });

  test('several audiences with azp equal to the client id pass', async () => {
    const { client } = await landOnCallback({
      idTokenClaims: (claims) => ({ ...claims, aud: ['app', 'api'], azp: 'app' }),
    });
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('exp and iat within the clock leeway pass; a leeway of 0 refuses them', async () => {
    const skewed = (claims: Record<string, unknown>) => ({
      ...claims,
      exp: now() - 30,
      iat: now() + 30,
    });
    const lenient = await landOnCallback({ idTokenClaims: skewed });
    expect(lenient.client.getSnapshot().status).toBe('authenticated');
    harness.dispose();
    const strict = await landOnCallback({ idTokenClaims: skewed }, undefined, { clockLeeway: 0 });
    expect(strict.client.getSnapshot().error?.check).toBe('exp');
  });

  test('signature, when verification is on: a token signed with a foreign key is refused', async () => {
    const { client, storage } = await landOnCallback({ signWithForeignKey: true }, undefined, {
      verifySignature: verifyIdTokenSignature,
    });
    expect(client.getSnapshot().error?.check).toBe('signature');
    expectNothingLeft(storage);
  });

  test('signature, when verification is on: a genuine token passes', async () => {
    // Another issuer, so that no key set is cached from an earlier test.
    const { client } = await landOnCallback({ issuer: 'https://id2.example.test' }, undefined, {
      verifySignature: verifyIdTokenSignature,
    });
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(harness.provider.count('jwks')).toBe(1);
  });

  test('callback_iss (RFC 9207): a wrong iss is refused before the code is exchanged', async () => {
    const { client, storage } = await landOnCallback({ issParameter: true }, (url) =>
      url.searchParams.set('iss', 'https://evil.example'),
    );
    expect(client.getSnapshot().error?.check).toBe('callback_iss');
    expect(harness.provider.count('token')).toBe(0);
    expectNothingLeft(storage);
    // The sign-in state is spent: a replay of the response finds nothing to finish.
    expect(Object.keys(localStorage).filter((key) => key.startsWith('oidc.'))).toEqual([]);
  });

  test('callback_iss (RFC 9207): a wrong iss is refused from a provider that does not announce it too', async () => {
    const { client, storage } = await landOnCallback({}, (url) =>
      url.searchParams.set('iss', 'https://evil.example'),
    );
    expect(client.getSnapshot().error?.check).toBe('callback_iss');
    expect(harness.provider.count('token')).toBe(0);
    expectNothingLeft(storage);
  });

  test('callback_iss (RFC 9207): a missing iss is refused when the provider announces it', async () => {
    const { client } = await landOnCallback({ issParameter: true }, (url) =>
      url.searchParams.delete('iss'),
    );
    expect(client.getSnapshot().error?.check).toBe('callback_iss');
    expect(harness.provider.count('token')).toBe(0);
  });

  test.each([
    ['after the right one', (url: URL) => url.searchParams.append('iss', 'https://evil.example')],
    [
      'with the right value twice',
      (url: URL) => url.searchParams.append('iss', url.searchParams.get('iss') as string),
    ],
  ])('callback_iss (RFC 9207): a repeated iss is refused (%s)', async (_, tamper) => {
    const { client, storage } = await landOnCallback({ issParameter: true }, tamper);
    expect(client.getSnapshot().error?.check).toBe('callback_iss');
    expect(harness.provider.count('token')).toBe(0);
    expectNothingLeft(storage);
  });

  test('callback_iss (RFC 9207): the right iss passes', async () => {
    const { client } = await landOnCallback({ issParameter: true });
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  /** A popup sign-in on `starter`, answered at the provider; the popup lands on its callback. */
  async function popupLanding(starter: ReturnType<Harness['createClient']>, forged: string | null) {
    const { popup, authorizeUrl } = stubPopup();
    const signingIn = starter.signIn({ popup: true, prompt: 'login' });
    const callback = new URL(harness.provider.authorize(await authorizeUrl()));
    if (forged !== null) callback.searchParams.set('iss', forged);
    return { callback: callback.toString(), popup, signingIn, ...landInPopup(callback.toString()) };
  }

  test.each([
    [
      'a wrong iss is refused in the popup; the opener gets that error, not the code',
      'https://evil.example',
    ],
    ['the right iss is handed to the opener, which signs in', null],
  ])('callback_iss (RFC 9207) in a popup: %s', async (_, forged) => {
    harness = createHarness({ issParameter: true });
    const starter = harness.createClient();
    await starter.start();
    const { callback, popup, signingIn, deliver, handedOver } = await popupLanding(starter, forged);
    const inPopup = harness.createClient({ storage: newStorage() });
    await inPopup.start();
    const handed = handedOver();
    expect(handed).toHaveLength(1);
    if (forged === null) {
      expect(handed[0]).toBe(callback);
    } else {
      expect(inPopup.getSnapshot().error?.check).toBe('callback_iss');
      expect(handed[0]).not.toContain('code=');
    }
    deliver();
    await signingIn;
    expect(popup.close).toHaveBeenCalled(); // the opener closes the popup once it has the answer
    if (forged === null) {
      expect(starter.getSnapshot().status).toBe('authenticated');
      expect(harness.provider.count('token')).toBe(1);
    } else {
      const { status, error } = starter.getSnapshot();
      expect(status).toBe('error');
      expect(isAuthError(error, 'id_token_invalid')).toBe(true);
      expect(error?.check).toBe('callback_iss');
      expect(harness.provider.count('token')).toBe(0);
    }
  });

  test('a popup that refuses the response leaves the session it shares storage with alone', async () => {
    harness = createHarness({ issParameter: true });
    const storage = newStorage();
    const { client: signedIn } = await harness.signIn(harness.createClient(), { storage });
    expect(storedUsers(storage)).toHaveLength(1);
    // A second sign-in (step-up) in a popup that shares the token storage (localStorage, or the
    // tab's sessionStorage in a silent iframe), answered with a forged iss.
    const { signingIn, deliver } = await popupLanding(signedIn, 'https://evil.example');
    await harness.createClient({ storage }).start();
    expect(storedUsers(storage)).toHaveLength(1);
    deliver();
    await signingIn;
    const { status, error } = signedIn.getSnapshot();
    expect(status).toBe('authenticated'); // the first session is still good
    expect(error?.check).toBe('callback_iss');
    expect(storedUsers(storage)).toHaveLength(1);
  });

  test('the discovered issuer must equal the configured authority (config_invalid)', async () => {
    harness = createHarness({ discoveredIssuer: 'https://id.example.test/' });
    const client = harness.createClient();
    await client.start();
    await client.signIn();
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('config_invalid');
    expect(error?.field).toBe('authority');
    expect(error?.message).toContain('"https://id.example.test/"');
    expect(harness.redirects).toEqual([]);
  });
});

describe("the provider's endpoints are https (or http on this machine)", () => {
  // A `javascript:` endpoint would run in the app's page when the browser is sent there; a plain
  // http one carries the code, the tokens or the ID token hint in clear.
  test.each([
    ['authorization_endpoint', 'javascript:alert(document.domain)//'],
    ['authorization_endpoint', 'http://id.example.test/authorize'],
    ['token_endpoint', 'http://id.example.test/token'],
  ])('sign-in with a discovered %s %s is config_invalid; nothing is sent', async (name, url) => {
    harness = createHarness({ discovery: (document) => ({ ...document, [name]: url }) });
    const client = harness.createClient();
    await client.start();
    // A redirect never resolves sign-in: whichever comes first.
    await Promise.race([client.signIn(), harness.nextRedirect().catch(() => undefined)]);
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('config_invalid');
    expect(error?.message).toContain(name);
    expect(harness.redirects).toEqual([]);
  });

  test.each(['javascript:alert(document.domain)//', 'data:text/html,<script>alert(1)</script>'])(
    'sign-out with a discovered end_session_endpoint %s ends the local session and goes nowhere',
    async (url) => {
      harness = createHarness();
      const storage = newStorage();
      const { client } = await harness.signIn(harness.createClient(), { storage });
      harness.provider.options.discovery = (document) => ({
        ...document,
        end_session_endpoint: url,
      });
      // A page loaded after the provider's document changed.
      const later = harness.createClient({ storage });
      await later.start();
      client.dispose();
      const redirects = harness.redirects.length;
      await Promise.race([later.signOut(), harness.nextRedirect().catch(() => undefined)]);
      const { status, error } = later.getSnapshot();
      expect(status).toBe('unauthenticated');
      expect(error?.code).toBe('config_invalid');
      expect(harness.redirects.slice(redirects)).toEqual([]);
      expect(storedUsers(storage)).toEqual([]);
    },
  );

  test('a page reloaded with a session renews through no http token endpoint off this machine', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    harness.provider.options.discovery = (document) => ({
      ...document,
      token_endpoint: 'http://id.example.test/token',
    });
    // The page again, its session restored without a sign-in: its discovery document is read anew.
    const later = harness.createClient({ storage });
    client.dispose();
    await later.start();
    expect(later.getSnapshot().status).toBe('authenticated');
    await passTokenFloor();
    const sent = harness.provider.requests.length;
    await expect(later.renew()).rejects.toMatchObject({ code: 'config_invalid' });
    // Its discovery document only, read anew by the reloaded page.
    const after = harness.provider.requests.slice(sent);
    expect(after.filter(({ endpoint }) => endpoint !== 'discovery').map(({ url }) => url)).toEqual(
      [],
    );
  });

  test.each([null, ''])(
    'an endpoint the provider writes as %j (one it does not have) is left alone',
    async (value) => {
      harness = createHarness({
        discovery: (document) => ({ ...document, revocation_endpoint: value }),
      });
      const { client } = await harness.signIn(harness.createClient());
      expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    },
  );

  test('an http issuer on localhost may have http endpoints', async () => {
    harness = createHarness({ issuer: 'http://localhost:4000' });
    const { client } = await harness.signIn(harness.createClient());
    expect(client.getSnapshot().status).toBe('authenticated');
  });
});

describe('every other error code the engine raises', () => {
  // Engines word a property read of null differently; none is a fetch that failed.
  test.each([
    ['userinfo answers JSON null', '/userinfo', () => Response.json(null)],
    [
      'the token endpoint refuses with JSON null',
      '/token',
      () => Response.json(null, { status: 400 }),
    ],
  ])(
    '%s: a failed exchange, not a network failure, and nothing stored',
    async (_, path, answerWith) => {
      harness = createHarness();
      const answer = harness.provider.fetch;
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
        new URL(new Request(input, init).url).pathname === path
          ? answerWith()
          : answer(input, init),
      );
      const storage = newStorage();
      const { client } = await harness.signIn(harness.createClient(), {
        storage,
        config: { loadUserInfo: true },
      });
      expect(client.getSnapshot().status).toBe('error');
      expect(client.getSnapshot().error?.code).toBe('token_exchange_failed');
      expect(client.getSnapshot().user).toBeNull();
      expectNothingLeft(storage);
    },
  );

  test("a provider's error that looks like a sign-in window's hand-over is the provider's own", async () => {
    const { client, storage } = await landOnCallback({}, (url) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', 'oidc-kit:config_invalid/authority');
      url.searchParams.set('error_description', 'Your account is locked.');
    });
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('provider_error');
    expect(error?.providerError).toBe('oidc-kit:config_invalid/authority');
    expect(error?.providerErrorDescription).toBe('Your account is locked.');
    expectNothingLeft(storage);
  });

  /** A popup sign-in whose authorization response comes back with `error` and no code. */
  async function popupAnsweredWithError(error: string) {
    harness = createHarness();
    const starter = harness.createClient();
    await starter.start();
    const { popup, authorizeUrl } = stubPopup();
    const signingIn = starter.signIn({ popup: true });
    const callback = new URL(harness.provider.authorize(await authorizeUrl()));
    callback.searchParams.delete('code');
    callback.searchParams.set('error', error);
    const { deliver } = landInPopup(callback.toString());
    const inPopup = harness.createClient({ storage: newStorage() });
    await inPopup.start();
    deliver();
    await signingIn;
    expect(popup.close).toHaveBeenCalled();
    return starter.getSnapshot().error;
  }

  test("a provider's error that looks like a hand-over reaches a popup's opener as the provider's", async () => {
    const error = await popupAnsweredWithError('oidc-kit:id_token_invalid/nonce');
    expect(error?.code).toBe('provider_error');
    expect(error?.providerError).toBe('oidc-kit:id_token_invalid/nonce');
    expect(error?.check).toBeUndefined();
  });

  test('a popup’s authorization response with an empty `error` and no code is no network failure', async () => {
    const error = await popupAnsweredWithError('');
    expect(error?.code).toBe('token_exchange_failed');
  });

  test('an authorization response with an empty `error` and no code is no network failure', async () => {
    const { client, storage } = await landOnCallback({}, (url) => {
      url.searchParams.delete('code');
      url.searchParams.set('error', '');
    });
    expect(client.getSnapshot().error?.code).toBe('token_exchange_failed');
    expectNothingLeft(storage);
  });

  test('provider_error: the user cancelled at the provider', async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.landOnCallback({ returnTo: '/orders', error: 'access_denied' });
    const client = harness.createClient({ storage });
    await client.start();
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('provider_error');
    expect(error?.providerError).toBe('access_denied');
    expect(error?.providerErrorDescription).toBe('The user cancelled the sign-in.');
    expect(harness.navigations).toEqual(['/orders']);
    expect(harness.provider.count('token')).toBe(0);
    expectNothingLeft(storage);
  });

  test('token_exchange_failed: the provider refuses the code', async () => {
    const { client, storage } = await landOnCallback({}, (url) =>
      url.searchParams.set('code', 'forged'),
    );
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('token_exchange_failed');
    expect(error?.providerError).toBe('invalid_grant');
    expectNothingLeft(storage);
  });

  test.each([
    ['no access_token', ({ access_token: _none, ...fields }: Record<string, unknown>) => fields],
    [
      'an empty access_token',
      (fields: Record<string, unknown>) => ({ ...fields, access_token: '' }),
    ],
    // RFC 6749 7.1: a client must not use a token whose type it does not understand.
    ['token_type "mac"', (fields: Record<string, unknown>) => ({ ...fields, token_type: 'mac' })],
    // A token bound to a DPoP key this client never made (it sent no proof): it cannot present it.
    [
      'token_type "DPoP" with no proof sent',
      (fields: Record<string, unknown>) => ({
        ...fields,
        token_type: 'DPoP',
      }),
    ],
    ['a JSON array for an answer', () => [] as unknown as Record<string, unknown>],
    // RFC 6749 5.1: these are strings; a provider's serialiser that writes another type is broken.
    [
      'an access_token that is a number',
      (fields: Record<string, unknown>) => ({ ...fields, access_token: 12345 }),
    ],
    [
      'an access_token that is an object',
      (fields: Record<string, unknown>) => ({ ...fields, access_token: { value: 'at' } }),
    ],
    [
      'a token_type that is a number',
      (fields: Record<string, unknown>) => ({ ...fields, token_type: 5 }),
    ],
    [
      'a scope that is an array',
      (fields: Record<string, unknown>) => ({ ...fields, scope: ['openid'] }),
    ],
    [
      'a refresh_token that is an object',
      (fields: Record<string, unknown>) => ({ ...fields, refresh_token: { value: 'rt' } }),
    ],
  ])('token_exchange_failed: a token response with %s stores nothing', async (_, rewrite) => {
    const { client, storage } = await landOnCallback({ tokenResponse: rewrite });
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('token_exchange_failed');
    expectNothingLeft(storage);
  });

  test('storage_failed: the browser cannot store the session (its storage is full); nothing is left', async () => {
    harness = createHarness();
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn({ returnTo: '/orders' });
    history.replaceState(null, '', harness.provider.authorize(await waiting));
    const storage = newStorage();
    storage.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const client = harness.createClient({ storage });
    await client.start();
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('storage_failed');
    expect(error?.message).toContain('storage');
    expect(error?.cause).toBeInstanceOf(DOMException);
    expectNothingLeft(storage);
  });

  test('storage_failed: sign-in cannot start when the browser cannot store its state', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      await client.signIn().catch(() => undefined);
    } finally {
      setItem.mockRestore();
    }
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(error?.code).toBe('storage_failed');
    expect(harness.redirects).toEqual([]);
  });

  // RFC 6749 5.1 requires it; a provider that leaves it out means the default, Bearer.
  test('a token response without token_type is taken for Bearer', async () => {
    const { client } = await landOnCallback({
      tokenResponse: ({ token_type: _none, ...fields }: Record<string, unknown>) => fields,
    });
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  // RFC 6750 and RFC 6749 7.1: the token type is case-insensitive.
  test.each(['bearer', 'BEARER'])(
    'token_type %s is Bearer: sign-in and renewal keep it, the API gets the Bearer scheme',
    async (type) => {
      const { client } = await landOnCallback({
        tokenResponse: (fields) => ({ ...fields, token_type: type }),
      });
      await passTokenFloor();
      await client.renew();
      expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
      const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
      expect(response.status).toBe(200);
      expect(harness.provider.requests.at(-1)?.authorization).toMatch(/^Bearer at-/);
    },
  );

  test.each(['a code', 'an error'])(
    'callback_state_mismatch: %s without `state`, after this tab left to sign in, is reported and removed',
    async (kind) => {
      const { client, storage } = await landOnCallback({}, (url) => {
        url.searchParams.delete('state');
        if (kind === 'an error') {
          url.searchParams.delete('code');
          url.searchParams.set('error', 'access_denied');
        }
      });
      // As for a replayed response: signed out, and the error says why.
      const { status, error } = client.getSnapshot();
      expect(status).toBe('unauthenticated');
      expect(error?.code).toBe('callback_state_mismatch');
      expect(error?.message).toMatch(/has no `state`/);
      expect(harness.provider.count('token')).toBe(0);
      expectNothingLeft(storage);
    },
  );

  test('a code without `state` when this tab started no sign-in is left to the app', async () => {
    harness = createHarness();
    history.replaceState(null, '', '/callback?code=the-apps-own');
    const client = harness.createClient();
    await client.start();
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error).toBeNull();
    expect(location.search).toBe('?code=the-apps-own');
  });

  test('the mark of a sign-in left half-way is spent by the next page load', async () => {
    harness = createHarness();
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    await waiting;
    // The user came back without signing in (the back button), then opened a page of the app
    // whose address carries a `code` of its own.
    history.replaceState(null, '', '/');
    await harness.createClient().start();
    history.replaceState(null, '', '/callback?code=the-apps-own');
    const client = harness.createClient();
    await client.start();
    expect(client.getSnapshot().error).toBeNull();
    expect(location.search).toBe('?code=the-apps-own');
  });

  test('callback_state_mismatch: a replayed callback with no session ends signed out, once', async () => {
    harness = createHarness();
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    const url = harness.provider.authorize(await waiting);
    history.replaceState(null, '', url);
    const storage = newStorage();
    const landed = harness.createClient({ storage });
    await landed.start();
    expect(landed.getSnapshot().status).toBe('authenticated');
    landed.dispose(); // no other tab left open to share its session

    // Reload, or the back button, onto the same callback URL in a tab with no session.
    history.replaceState(null, '', url);
    const replayed = harness.createClient();
    await replayed.start();
    const { status, error } = replayed.getSnapshot();
    expect(status).toBe('unauthenticated');
    expect(error?.code).toBe('callback_state_mismatch');
    expect(harness.provider.count('token')).toBe(1);
    expect(addressHasAuthParams()).toBe(false);
    expect(harness.navigations).toEqual(['/', '/']);
  });

  test('callback_state_mismatch: a replayed callback keeps the session there is, with no error', async () => {
    harness = createHarness();
    const storage = newStorage();
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    const url = harness.provider.authorize(await waiting);
    history.replaceState(null, '', url);
    await harness.createClient({ storage }).start();
    history.replaceState(null, '', url);
    const reloaded = harness.createClient({ storage });
    await reloaded.start();
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    expect(reloaded.getSnapshot().error).toBeNull();
    expect(harness.provider.count('token')).toBe(1);
  });

  test('network: the provider cannot be reached when sign-in starts', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await client.signIn();
    expect(client.getSnapshot().status).toBe('error');
    expect(client.getSnapshot().error?.code).toBe('network');
    expect(harness.redirects).toEqual([]);
  });

  test('timeout: the token endpoint does not answer within the timeout', async () => {
    const { client, storage } = await landOnCallback({ tokenDelay: 1000 }, undefined, {
      timeout: 200,
    });
    expect(client.getSnapshot().error?.code).toBe('timeout');
    expectNothingLeft(storage);
  });

  test('popup_blocked: the browser refuses to open the window', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    vi.spyOn(window, 'open').mockReturnValue(null);
    await client.signIn({ popup: true });
    expect(client.getSnapshot().status).toBe('error');
    expect(client.getSnapshot().error?.code).toBe('popup_blocked');
  });

  test('popup_closed: the user closes the window; still signed out, may try again', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    const { popup } = stubPopup();
    const signingIn = client.signIn({ popup: true });
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('signing-in'));
    popup.closed = true;
    await signingIn;
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('popup_closed');
  });

  test('a renewal that cannot store its tokens is renew_failed, not storage_failed: the session stays, the next renewal works and presents no spent refresh token', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    await passTokenFloor();
    const user = client.getSnapshot().user;
    const setItem = storage.setItem;
    storage.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', user });
    expect(client.getSnapshot().error?.code).toBe('renew_failed');
    storage.setItem = setItem;
    await passTokenFloor();
    await expect(client.renew()).resolves.not.toBeNull();
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
  });

  test('renew_failed: a passing failure keeps the session and its tokens', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    await passTokenFloor();
    const user = client.getSnapshot().user;
    harness.provider.options.refreshStatus = 503;
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user).toBe(user);
    expect(client.getSnapshot().error?.code).toBe('renew_failed');
    expect(storedUsers(storage)).toHaveLength(1);
  });

  test('renew_failed: getAccessToken() and getAuthHeaders() give null for an expiring token, not a rejection', async () => {
    // Tokens that expire within 5 s, which both renew first.
    harness = createHarness({ accessTokenTtl: 4 });
    const { client } = await harness.signIn(harness.createClient());
    await passTokenFloor();
    harness.provider.options.refreshStatus = 503;
    await expect(client.getAccessToken()).resolves.toBeNull();
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().error?.code).toBe('renew_failed');
    client.dismissError();
    await passTokenFloor();
    await expect(client.getAuthHeaders(`${harness.provider.apiOrigin}/orders`)).resolves.toBeNull();
    expect(client.getSnapshot().error?.code).toBe('renew_failed');
  });

  test('session_expired: invalid_grant on renewal ends the session quietly', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    await passTokenFloor();
    harness.provider.revokeAllGrants();
    await expect(client.renew()).resolves.toBeNull();
    const { status, error } = client.getSnapshot();
    expect(status).toBe('unauthenticated');
    expect(error?.code).toBe('session_expired');
    expect(error?.providerError).toBe('invalid_grant');
    expect(storedUsers(storage)).toEqual([]);
  });

  test('id_token_invalid (format): a renewal whose ID token is not a JWT ends the session', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    await passTokenFloor();
    harness.provider.options.tokenResponse = (fields) => ({ ...fields, id_token: 'not-a-jwt' });
    await expect(client.renew()).resolves.toBeNull();
    const { status, user, error } = client.getSnapshot();
    expect(status).toBe('unauthenticated');
    expect(user).toBeNull();
    expect(isAuthError(error, 'id_token_invalid')).toBe(true);
    expect(error?.check).toBe('format');
    expect(storedUsers(storage)).toEqual([]);
  });

  // OpenID Connect Core 12.2: a refreshed ID token keeps the `auth_time` and the `azp` of the first;
  // with its errata, it need not carry a `nonce`, and one it carries is the sign-in's.
  test.each([
    ['auth_time', { auth_time: 1_700_000_000 }, { auth_time: 1_700_000_600 }],
    ['azp', { azp: 'app' }, { azp: undefined }],
    ['azp', {}, { azp: 'app' }],
    ['nonce', {}, { nonce: 'another-nonce' }],
    ['iss', {}, { iss: 'https://evil.example' }],
    ['aud', {}, { aud: 'another-app' }],
    ['sub', {}, { sub: 'mallory' }],
  ])(
    'id_token_invalid (%s): a renewal whose ID token changes it ends the session',
    async (check, first, renewed) => {
      harness = createHarness({ idTokenClaims: (claims) => ({ ...claims, ...first }) });
      const storage = newStorage();
      const { client } = await harness.signIn(harness.createClient(), { storage });
      await passTokenFloor();
      harness.provider.options.idTokenClaims = (claims) => ({ ...claims, ...first, ...renewed });
      await expect(client.renew()).resolves.toBeNull();
      const { status, user, error } = client.getSnapshot();
      expect(status).toBe('unauthenticated');
      expect(user).toBeNull();
      expect(isAuthError(error, 'id_token_invalid')).toBe(true);
      expect(error?.check).toBe(check);
      expect(error?.message).toContain(`\`${check}\``);
      expect(storedUsers(storage)).toEqual([]);
    },
  );

  test("a renewal whose ID token repeats the sign-in's nonce, or has none, keeps the session", async () => {
    let signInNonce: unknown;
    harness = createHarness({
      idTokenClaims: (claims) => {
        signInNonce ??= claims.nonce;
        return claims;
      },
    });
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    expect(typeof signInNonce).toBe('string');
    await passTokenFloor();
    harness.provider.options.idTokenClaims = (claims) => ({ ...claims, nonce: signInNonce });
    const repeated = await client.renew();
    expect(repeated?.access_token).toBeDefined();
    await passTokenFloor();
    harness.provider.options.idTokenClaims = undefined;
    const without = await client.renew();
    expect(without?.access_token).toBeDefined();
    expect(without?.access_token).not.toBe(repeated?.access_token);
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().error).toBeNull();
  });

  test('config_invalid: a wrong configuration throws when the client is created', () => {
    harness = createHarness();
    expect(() => harness.createClient({ config: { client_secret: 'oops' } as never })).toThrow(
      expect.objectContaining({ code: 'config_invalid', field: 'client_secret' }),
    );
  });
});

describe('a wrong authority is named, with the URL tried', () => {
  test('a path with no discovery document (an HTML 404) is config_invalid on authority, flagged at startup', async () => {
    harness = createHarness();
    const authority = `${harness.provider.issuer}/realms/typo`;
    const client = harness.createClient({ config: { authority } });
    await client.start();
    await vi.waitFor(() => expect(client.getSnapshot().error).not.toBeNull());
    const { status, error } = client.getSnapshot();
    expect(status).toBe('unauthenticated');
    expect(error?.code).toBe('config_invalid');
    expect(error?.field).toBe('authority');
    expect(error?.message).toContain(`${authority}/.well-known/openid-configuration`);
    expect(error?.message).toMatch(/text\/html, not JSON/);

    await client.signIn();
    expect(client.getSnapshot().error?.code).toBe('config_invalid');
    expect(client.getSnapshot().error?.message).toContain('/.well-known/openid-configuration');
  });

  test('a trailing slash is flagged at startup, not at the first sign-in', async () => {
    harness = createHarness();
    const client = harness.createClient({ config: { authority: `${harness.provider.issuer}/` } });
    await client.start();
    await vi.waitFor(() => expect(client.getSnapshot().error).not.toBeNull());
    const { status, error } = client.getSnapshot();
    expect(status).toBe('unauthenticated');
    expect(error?.code).toBe('config_invalid');
    expect(error?.message).toMatch(/exactly the issuer/);
  });

  test('a wrong authority found at run time is logged once, in production too (a deploy with a wrong setting leaves a trace)', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    harness = createHarness();
    const client = harness.createClient({ config: { authority: `${harness.provider.issuer}/` } });
    await client.start();
    await vi.waitFor(() => expect(client.getSnapshot().error?.code).toBe('config_invalid'));
    await client.signIn();
    expect(client.getSnapshot().error?.code).toBe('config_invalid');
    const configErrors = logged.mock.calls.filter(([error]) =>
      isAuthError(error, 'config_invalid'),
    );
    expect(configErrors.length).toBeGreaterThanOrEqual(1);
    expect(configErrors[0]?.[0]).toMatchObject({ field: 'authority' });
    // One line per failure found, not one per state change that carries it.
    expect(configErrors.length).toBeLessThanOrEqual(2);
  });

  test('an unreachable provider is network, naming the URL; not flagged at startup', async () => {
    harness = createHarness({ unreachable: true });
    const client = harness.createClient();
    await client.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getSnapshot().error).toBeNull();
    await client.signIn();
    const { error } = client.getSnapshot();
    expect(error?.code).toBe('network');
    expect(error?.message).toContain(`${harness.provider.issuer}/.well-known/openid-configuration`);
    expect(error?.message).toMatch(/CORS/);
  });
});
