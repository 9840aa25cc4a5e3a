import { afterEach, describe, expect, test } from 'vitest';
import {
  addressHasAuthParams,
  createHarness,
  landInPopup,
  newStorage,
  storageText,
  storedUsers,
  stubPopup,
} from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import type { AuthClient } from './AuthClient';

// A sign-in response changed on its way back (by an attacker, a proxy, or a provider we did not
// write): refused with a typed error, nothing stored, the address cleaned, no code sent twice.

let harness: Harness;
afterEach(() => harness?.dispose());

/** Starts a redirect sign-in and returns the callback URL the provider answers with. */
async function answeredCallback(): Promise<URL> {
  const client = harness.createClient();
  await client.start();
  const waiting = harness.nextRedirect();
  void client.signIn({ returnTo: '/orders' });
  return new URL(harness.provider.authorize(await waiting));
}

/** A new page loaded at `url`, as the browser lands it, with its own token storage. */
async function landAt(url: string, storage = newStorage()) {
  history.replaceState(null, '', url);
  const client = harness.createClient({ storage });
  await client.start();
  return client;
}

/** `landed` refused its response as no sign-in of this browser: nothing stored or sent, address clean. */
function expectRefusedState(landed: AuthClient, storage: Storage): void {
  expect(landed.getSnapshot().status).toBe('unauthenticated');
  expect(landed.getSnapshot().error?.code).toBe('callback_state_mismatch');
  expect(storedUsers(storage)).toEqual([]);
  expect(harness.provider.count('token')).toBe(0);
  expect(addressHasAuthParams()).toBe(false);
}

describe('a parameter given twice (RFC 6749 3.1: never) is refused', () => {
  test.each([
    ['code, the real one first', 'code', false],
    ['code, the real one last', 'code', true],
    ['state, the real one first', 'state', false],
    ['state, the real one last', 'state', true],
  ])('%s', async (_, name, realLast) => {
    harness = createHarness();
    const callback = await answeredCallback();
    const real = callback.searchParams.get(name) as string;
    callback.searchParams.delete(name);
    for (const value of realLast ? ['forged', real] : [real, 'forged'])
      callback.searchParams.append(name, value);
    const storage = newStorage();
    const landed = await landAt(callback.href, storage);

    expectRefusedState(landed, storage);
  });

  test('the refused response is spent: the same response without the repeat signs nobody in', async () => {
    harness = createHarness();
    const callback = await answeredCallback();
    const clean = callback.href;
    callback.searchParams.append('code', 'forged');
    await landAt(callback.href);
    const storage = newStorage();
    const replayed = await landAt(clean, storage);

    expect(replayed.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(storedUsers(storage)).toEqual([]);
    expect(harness.provider.count('token')).toBe(0);
  });

  test('in a popup: refused there, and the opener gets that error, not the code', async () => {
    harness = createHarness();
    const starter = harness.createClient();
    await starter.start();
    const { popup, authorizeUrl } = stubPopup();
    const signingIn = starter.signIn({ popup: true });
    const callback = new URL(harness.provider.authorize(await authorizeUrl()));
    callback.searchParams.append('code', 'forged');
    const { deliver, handedOver } = landInPopup(callback.href);
    await harness.createClient({ storage: newStorage() }).start();
    expect(handedOver()).toHaveLength(1);
    expect(handedOver()[0]).not.toContain('code=');
    deliver();
    await signingIn;

    expect(popup.close).toHaveBeenCalled();
    expect(starter.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(harness.provider.count('token')).toBe(0);
  });
});

test('a state of 200,000 characters is no sign-in of this browser: refused, the code never sent', async () => {
  harness = createHarness();
  const callback = await answeredCallback();
  callback.searchParams.set('state', 'x'.repeat(200_000));
  const storage = newStorage();
  expectRefusedState(await landAt(callback.href, storage), storage);
});

test('a response with both a code and an error: the error is reported, the code is never exchanged', async () => {
  harness = createHarness();
  const callback = await answeredCallback();
  callback.searchParams.set('error', 'access_denied');
  const storage = newStorage();
  const landed = await landAt(callback.href, storage);

  expect(landed.getSnapshot().status).toBe('error');
  expect(landed.getSnapshot().error).toMatchObject({
    code: 'provider_error',
    providerError: 'access_denied',
  });
  expect(harness.provider.count('token')).toBe(0);
  expect(storedUsers(storage)).toEqual([]);
  expect(addressHasAuthParams()).toBe(false);
});

describe('a response in the fragment, where the query is expected, is refused and removed', () => {
  test('the whole response in the fragment (a provider that ignores response_mode=query)', async () => {
    harness = createHarness();
    const callback = await answeredCallback();
    callback.hash = callback.search.slice(1);
    callback.search = '';
    const storage = newStorage();
    const landed = await landAt(callback.href, storage);

    expect(landed.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(location.hash).toBe('');
    expect(storedUsers(storage)).toEqual([]);
    expect(harness.provider.count('token')).toBe(0);
  });

  test('a response in the query with another in the fragment', async () => {
    harness = createHarness();
    const callback = await answeredCallback();
    callback.hash = 'code=forged&state=forged&_=_';
    const storage = newStorage();
    const landed = await landAt(callback.href, storage);

    expect(landed.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(addressHasAuthParams()).toBe(false);
    // What is not the response's stays.
    expect(location.hash).toBe('#_=_');
    expect(storedUsers(storage)).toEqual([]);
    expect(harness.provider.count('token')).toBe(0);
  });

  test('with no sign-in under way, a response with a state in the fragment is refused and removed', async () => {
    harness = createHarness();
    const landed = await landAt('http://localhost:3000/callback#code=stolen&state=unknown');

    expect(landed.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(location.hash).toBe('');
    expect(harness.provider.count('token')).toBe(0);
  });
});

describe('the return from the provider’s logout', () => {
  /** Signs in, then out; returns the `state` the logout request carried. */
  async function leftToSignOut(options: Record<string, unknown> = {}): Promise<URL> {
    const { client } = await harness.signIn(harness.createClient());
    history.replaceState(null, '', '/dashboard');
    const waiting = harness.nextRedirect();
    void client.signOut(options);
    return new URL(await waiting);
  }

  test('replayed: reported as callback_state_mismatch, the address cleaned', async () => {
    harness = createHarness();
    const state = (await leftToSignOut()).searchParams.get('state') as string;
    const back = await landAt(`http://localhost:3000/signed-out?state=${state}`);
    expect(back.getSnapshot()).toMatchObject({ error: null, signOutReason: 'user' });
    const again = await landAt(`http://localhost:3000/signed-out?state=${state}`);

    expect(again.getSnapshot().status).toBe('unauthenticated');
    expect(again.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(location.search).toBe('');
  });

  test('another state, after this tab left: reported, no sign-out reason, nothing of the session left', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const waiting = harness.nextRedirect();
    void client.signOut();
    await waiting;
    const back = await landAt('http://localhost:3000/signed-out?state=forged', storage);

    expect(back.getSnapshot()).toMatchObject({ status: 'unauthenticated', signOutReason: null });
    expect(back.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(storedUsers(storage)).toEqual([]);
    expect(storageText(harness.shared)).not.toContain('oidc-kit:session:');
    expect(location.search).toBe('');
  });

  test.each([
    ['the one sent, then another', (state: string) => `state=${state}&state=forged`],
    ['the one sent, twice', (state: string) => `state=${state}&state=${state}`],
  ])(
    'with `state` given twice (%s): reported as callback_state_mismatch, no sign-out reason, spent',
    async (_, search) => {
      harness = createHarness();
      const state = (await leftToSignOut()).searchParams.get('state') as string;
      const back = await landAt(`http://localhost:3000/signed-out?${search(state)}`);

      expect(back.getSnapshot()).toMatchObject({ status: 'unauthenticated', signOutReason: null });
      expect(back.getSnapshot().error?.code).toBe('callback_state_mismatch');
      expect(location.search).toBe('');
      // The state is spent all the same: the return without the repeat is refused too.
      const again = await landAt(`http://localhost:3000/signed-out?state=${state}`);
      expect(again.getSnapshot().error?.code).toBe('callback_state_mismatch');
    },
  );

  test("with a sign-in's state (this browser's, but no sign-out's): reported as callback_state_mismatch, no sign-out reason", async () => {
    harness = createHarness();
    const signInState = (await answeredCallback()).searchParams.get('state') as string;
    const back = await landAt(`http://localhost:3000/signed-out?state=${signInState}`);

    expect(back.getSnapshot()).toMatchObject({ status: 'unauthenticated', signOutReason: null });
    expect(back.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(back.getSnapshot().error?.message).toMatch(/state` of a sign-in/);
    expect(location.search).toBe('');
  });

  test('post_logout_redirect_uri comes from the config only, whatever the options carry', async () => {
    harness = createHarness();
    const logout = await leftToSignOut({
      post_logout_redirect_uri: 'https://evil.example/',
      ui_locales: 'fr&post_logout_redirect_uri=https://evil.example/',
    });

    expect(logout.searchParams.getAll('post_logout_redirect_uri')).toEqual([
      'http://localhost:3000/signed-out',
    ]);
    expect(logout.searchParams.get('state')).toMatch(/^[\w-]{16,}$/);
  });
});
