import type { User } from 'oidc-client-ts';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  addressHasAuthParams,
  appOrigin,
  copyStorage,
  createHarness,
  newStorage,
  recordStatuses,
  storageText,
  storedUsers,
  stubPopup,
} from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import { later, runFor } from '../../test/support/clock';
import { alice } from '../../test/support/FakeProvider';
import type { FakeUser } from '../../test/support/FakeProvider';

const bob: FakeUser = { sub: 'bob', name: 'Bob Stone', email: 'bob@example.com', roles: ['user'] };
import type { AuthClient } from './AuthClient';
import { maxRetryAfter } from './retryAfter';
import { maxRenewRetries } from './Renewal';

// The session protocol (design: "Session protocol"), one describe per rule. Each test here failed
// on the engine before the protocol was built.

let harness: Harness;
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
});

/** A raw answer, as a proxy or a server's error page gives it. */
function page(body: string, status: number, type: string, headers: Record<string, string> = {}) {
  return new Response(body, { status, headers: { 'Content-Type': type, ...headers } });
}

async function signedInTab(options: Parameters<Harness['createClient']>[0] = {}) {
  const storage = options.storage ?? newStorage();
  const { client } = await harness.signIn(harness.createClient(options), {
    storage,
    config: options.config,
  });
  history.replaceState(null, '', '/dashboard');
  return { client, storage };
}

/** A signed-in tab that signs out: the `state` its logout request carries, once it has left. */
async function leftForLogout(options: Parameters<Harness['createClient']>[0] = {}) {
  const { client } = await signedInTab(options);
  const waiting = harness.nextRedirect();
  void client.signOut();
  return new URL(await waiting).searchParams.get('state');
}

async function openTab(storage: Storage = newStorage(), config = {}): Promise<AuthClient> {
  const client = harness.createClient({ storage, config });
  await client.start();
  return client;
}

/**
 * A tab's channel that can be frozen (a tab asleep, or in the back-forward cache): while `frozen`,
 * the tab hears nothing, and what went by is kept in `unheard`.
 */
interface FreezableChannel {
  frozen: boolean;
  unheard: unknown[];
  create: ReturnType<Harness['deafenableChannel']>;
}

function freezableChannel(): FreezableChannel {
  const channel: FreezableChannel = {
    frozen: false,
    unheard: [],
    create: harness.deafenableChannel((message) => {
      if (channel.frozen) channel.unheard.push(message);
      return channel.frozen;
    }),
  };
  return channel;
}

/**
 * Waits until a message of `type` has reached a frozen tab's channel unheard: only then does "it
 * missed the message" hold (on a loaded machine a message can take far longer than a fixed sleep).
 */
async function goneByUnheard(channel: FreezableChannel, type: string): Promise<void> {
  await vi.waitFor(
    () => expect(channel.unheard).toContainEqual(expect.objectContaining({ type })),
    { timeout: 5000 },
  );
}

describe('1. a refresh token is presented at most once, by any tab, ever', () => {
  test('a lost refresh response is not followed by the same token: a silent authorize recovers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const token = client.getSnapshot().user?.refresh_token as string;
    later();
    harness.provider.options.loseNextRefreshResponse = true;
    await client.renew().catch(() => undefined);
    later();
    await client.renew().catch(() => undefined);

    expect(harness.provider.presentations(token)).toBe(1);
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
    expect(harness.silentAuthorizations).toHaveLength(1);
    expect(new URL(harness.silentAuthorizations[0] as string).searchParams.get('prompt')).toBe(
      'none',
    );
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user?.refresh_token).not.toBe(token);
  });

  test.each([
    ['an empty body', () => ({})],
    ['an error in a 200', () => ({ error: 'invalid_grant' })],
    [
      'tokens but no access_token',
      ({ access_token: _none, ...fields }: Record<string, unknown>) => fields,
    ],
    [
      'an access_token that is a number',
      (fields: Record<string, unknown>) => ({ ...fields, access_token: 12345 }),
    ],
    [
      'a token_type that is a number',
      (fields: Record<string, unknown>) => ({ ...fields, token_type: 5 }),
    ],
  ])(
    'a refresh answered 200 with %s is a failure: the token stays spent, a silent authorize recovers',
    async (_, rewrite) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      harness = createHarness();
      const { client, storage } = await signedInTab();
      const user = client.getSnapshot().user;
      const token = user?.refresh_token as string;
      later();
      harness.provider.options.tokenResponse = rewrite;
      await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
      expect(client.getSnapshot().status).toBe('authenticated');
      expect(client.getSnapshot().user).toBe(user);
      expect(storageText(storage)).toContain(user?.access_token);

      harness.provider.options.tokenResponse = undefined;
      later();
      await client.renew();
      expect(harness.provider.presentations(token)).toBe(1);
      expect(harness.provider.reusedRefreshTokens).toEqual([]);
      expect(harness.silentAuthorizations).toHaveLength(1);
      expect(client.getSnapshot().status).toBe('authenticated');
      expect(client.getSnapshot().user?.access_token).not.toBe(user?.access_token);
    },
  );

  // Answers that are not the token endpoint's JSON (a proxy's or a server's page, a rate limit): no
  // `error` says the token went unused, so it stays spent. The next try comes `wait` s later: the
  // 429's Retry-After holds it back (rule 5).
  test.each([
    ['an HTML 500 page', () => page('<!doctype html><title>Oops</title>', 500, 'text/html'), 11],
    [
      'a 429 with Retry-After',
      () => page('Slow down', 429, 'text/plain', { 'Retry-After': '120' }),
      121,
    ],
    ['an HTML 200 page', () => page('<!doctype html><title>Sign in</title>', 200, 'text/html'), 11],
  ])(
    'a refresh answered with %s is renew_failed: the token stays spent, a silent authorize recovers',
    async (_, answer, wait) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      harness = createHarness();
      const { client } = await signedInTab();
      const user = client.getSnapshot().user;
      const token = user?.refresh_token as string;
      later();
      harness.provider.options.refreshAnswer = answer;
      await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
      expect(client.getSnapshot().status).toBe('authenticated');
      expect(client.getSnapshot().user).toBe(user);

      harness.provider.options.refreshAnswer = undefined;
      later(wait);
      await client.renew();
      expect(harness.provider.presentations(token)).toBe(1);
      expect(harness.silentAuthorizations).toHaveLength(1);
      expect(client.getSnapshot().status).toBe('authenticated');
      expect(client.getSnapshot().user?.access_token).not.toBe(user?.access_token);
    },
  );

  // A refusal that says the token was not used leaves it current: the one exception to rule 1.
  test.each([
    ['server_error (the provider may have rotated first): spent', 500, 'server_error', 1],
    ['temporarily_unavailable (refused unused): still current, sent again', 503, undefined, 2],
    ['invalid_client (refused before use): still current, sent again', 401, 'invalid_client', 2],
    ['an error code of its own (it may have rotated first): spent', 500, 'unknown_error', 1],
    ["a gateway's code in a 502 (it may have rotated first): spent", 502, 'bad_gateway', 1],
  ])('a refresh answered %s', async (_, refreshStatus, refreshError, presentations) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness({ refreshStatus, refreshError });
    const { client } = await signedInTab();
    const token = client.getSnapshot().user?.refresh_token as string;
    later();
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    harness.provider.options.refreshStatus = undefined;
    later();
    await client.renew();
    expect(harness.provider.presentations(token)).toBe(presentations);
    // A spent token leaves a silent authorize to renew.
    expect(harness.silentAuthorizations).toHaveLength(2 - presentations);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test.each([
    ['the same user', false],
    ['another user (a second account)', true],
  ])(
    "a renewal sends the refresh token it claimed, though another tab's sign-in stores its user (%s, storage: 'local') in between",
    async (_, otherAccount) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      harness = createHarness();
      const config = { storage: 'local' as const };
      // The other tab's user: a genuine sign-in of its own (kept out of this session's record).
      const isolated = { createChannel: () => null, sharedStorage: newStorage() };
      const elsewhere = newStorage();
      const { client: other } = await harness.signIn(
        harness.createClient({ environment: isolated }),
        { user: otherAccount ? bob : alice, storage: elsewhere, environment: isolated },
      );
      other.dispose();
      const { client, storage } = await signedInTab({ config });
      const claimed = client.getSnapshot().user?.refresh_token as string;
      const [userKey] = storedUsers(storage);
      const othersUser = JSON.parse(elsewhere.getItem(userKey as string) as string);
      // Another tab's sign-in callback stores its user in the shared storage (before booking its
      // session, under the lock) just after this tab claimed its token.
      const write = harness.shared.setItem.bind(harness.shared);
      harness.shared.setItem = (key: string, value: string) => {
        write(key, value);
        if (key.startsWith('oidc-kit:session:') && value.includes('"refresh":null')) {
          storage.setItem(
            userKey as string,
            JSON.stringify({ ...othersUser, refresh_token: 'rt-other-tab' }),
          );
        }
      };
      later();
      await client.renew();
      expect(harness.provider.presentations('rt-other-tab')).toBe(0);
      expect(harness.provider.presentations(claimed)).toBe(1);
      // The renewal is checked against the user it renewed, not the other tab's.
      expect(client.getSnapshot().status).toBe('authenticated');
      expect(client.getSnapshot().user?.profile.sub).toBe('alice');
    },
  );

  test('an oidc-client-ts without the refresh oidc-kit calls: a config error, and the token is not spent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const token = client.getSnapshot().user?.refresh_token as string;
    const manager = client.userManager as unknown as { _useRefreshToken?: unknown };
    manager._useRefreshToken = undefined;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    later();
    await expect(client.renew()).rejects.toMatchObject({ code: 'config_invalid' });
    expect(logged).toHaveBeenCalled();
    expect(harness.provider.presentations(token)).toBe(0);
    // Back with a version that has it: the same token is still the one to send.
    delete manager._useRefreshToken;
    later();
    await client.renew();
    expect(harness.provider.presentations(token)).toBe(1);
    expect(harness.silentAuthorizations).toHaveLength(0);
  });

  test('a userinfo error after a rotation does not bring the spent refresh token back', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const config = { loadUserInfo: true };
    const { client } = await signedInTab({ config });
    const token = client.getSnapshot().user?.refresh_token as string;
    later();
    // The refresh succeeds (the token rotates); the profile request after it fails.
    harness.provider.options.userinfoStatus = 503;
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    harness.provider.options.userinfoStatus = undefined;
    later();
    await client.renew();
    expect(harness.provider.presentations(token)).toBe(1);
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('a lost refresh response with no provider session left ends the session everywhere', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client, storage } = await signedInTab();
    const other = await openTab();
    const token = client.getSnapshot().user?.refresh_token as string;
    later();
    harness.provider.options.loseNextRefreshResponse = true;
    harness.provider.options.providerSession = false;
    await client.renew().catch(() => undefined);
    // The next attempt (no sooner than 10 s after the lost one) authorizes silently: refused.
    later();
    await client.renew().catch(() => undefined);

    expect(harness.provider.presentations(token)).toBe(1);
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('session_expired');
    expect(storedUsers(storage)).toEqual([]);
    await vi.waitFor(() => expect(other.getSnapshot().status).toBe('unauthenticated'));
  });

  test('a tab away through 12 rotations in another tab never sends its stale token', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client: first, storage } = await signedInTab();
    const away = copyStorage(storage);
    const stale = first.getSnapshot().user?.refresh_token as string;
    for (let round = 0; round < 12; round += 1) {
      later();
      await first.renew();
    }
    expect(harness.provider.count('refresh')).toBe(12);

    later(3600);
    const back = await openTab(away);
    await back.renew().catch(() => undefined);
    await back.getAccessToken();

    expect(harness.provider.presentations(stale)).toBe(1);
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
    expect(back.getSnapshot().status).toBe('authenticated');
    await vi.waitFor(() =>
      expect(first.getSnapshot().user?.access_token).toBe(back.getSnapshot().user?.access_token),
    );
    expect(first.getSnapshot().status).toBe('authenticated');
  });

  test('the shared record holds neither tokens nor a list of spent ones', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const tokens: string[] = [];
    const sizes: number[] = [];
    for (let round = 0; round < 12; round += 1) {
      tokens.push(client.getSnapshot().user?.refresh_token as string);
      later();
      await client.renew();
      sizes.push(storageText(harness.shared).length);
    }
    const text = storageText(harness.shared);
    for (const token of tokens) expect(text).not.toContain(token);
    expect(text).not.toContain(client.getSnapshot().user?.access_token);
    // One record, rewritten in place: it does not grow with the rotations.
    expect(new Set(sizes).size).toBe(1);
  });
});

describe("2. storage: 'memory' keeps the refresh token out of web storage and every message", () => {
  test('a second tab is signed in with no refresh token in any message, and renews through the first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const messages = harness.recordMessages();
    const memory = { storage: 'memory' as const };
    const { client: first } = await signedInTab({ config: memory, storage: undefined });
    const redirects = harness.redirects.length;
    const second = await openTab(newStorage(), memory);
    expect(second.getSnapshot().status).toBe('authenticated');
    expect(harness.redirects).toHaveLength(redirects);
    expect(harness.silentAuthorizations).toEqual([]);

    later();
    const renewed = await second.renew();
    expect(renewed?.access_token).toBe(first.getSnapshot().user?.access_token);
    expect(harness.provider.count('refresh')).toBe(1);

    // A refresh token of the fake provider, as a value of its own: not the letters "rt-" inside
    // a JWT signature, where base64url puts them now and then.
    const refreshToken = /(?<![\w-])rt-[\w-]+/;
    const seen = JSON.stringify(messages);
    expect(messages.length).toBeGreaterThan(0);
    expect(seen).not.toContain('refresh_token');
    expect(seen).not.toMatch(refreshToken);
    expect(storageText(harness.shared)).not.toMatch(refreshToken);
    expect(storageText(localStorage)).not.toMatch(refreshToken);
    expect(storageText(sessionStorage)).not.toMatch(refreshToken);
  });
});

describe("2b. storage: 'memory' keeps the refresh token from the app's script", () => {
  const memory = { storage: 'memory' as const };
  const refreshToken = /(?<![\w-])rt-[\w-]+/;

  test('the snapshot and renew() give users without it; the tab that holds it still renews with it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab({ config: memory });
    expect(client.getSnapshot().user?.refresh_token).toBeUndefined();
    expect(client.getSnapshot().user?.toStorageString()).not.toMatch(refreshToken);
    later();
    const renewed = await client.renew();
    expect(harness.provider.count('refresh')).toBe(1);
    expect(renewed?.refresh_token).toBeUndefined();
    expect(client.getSnapshot().user?.refresh_token).toBeUndefined();
    // The rotated token was kept where the app cannot read it: the next renewal uses it.
    later();
    await client.renew();
    expect(harness.provider.count('refresh')).toBe(2);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('a refused refresh puts no refresh token in the error (nor its cause)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness({ refreshStatus: 400 });
    const { client } = await signedInTab({ config: memory });
    later();
    await client.renew().catch(() => undefined);
    const error = client.getSnapshot().error;
    expect(error?.code).toBe('renew_failed');
    const seen = (value: unknown): string =>
      value instanceof URLSearchParams ? value.toString() : String(value);
    const cause = error?.cause as Record<string, unknown>;
    expect(Object.values(cause).map(seen).join(' ')).not.toMatch(refreshToken);
  });
});

describe('3. every user that reaches the store passes the ID-token checks, from another tab too', () => {
  /**
   * Two tabs through a real renewal, once the second has taken it; `forge` then posts that
   * `renewed` message again with its user rewritten, as a same-origin script could.
   */
  async function renewedInTwoTabs() {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const other = await openTab();
    const before = other.getSnapshot().user;
    const channel = harness.rawChannel();
    const messages = harness.recordMessages();
    later();
    await client.renew();
    await vi.waitFor(() => expect(other.getSnapshot().user).not.toBe(before));
    const renewed = messages.find((message) => (message as { type?: string }).type === 'renewed');
    async function forge(rewrite: (user: Record<string, unknown>) => void): Promise<void> {
      const forged = structuredClone(renewed) as { session: { user: string } };
      const user = JSON.parse(forged.session.user) as Record<string, unknown>;
      rewrite(user);
      forged.session.user = JSON.stringify(user);
      channel.postMessage(forged);
      await harness.caughtUp(other);
    }
    return { other, forge };
  }

  test("a renewal message may not change the session's user, even with a genuine ID token", async () => {
    const { other, forge } = await renewedInTwoTabs();
    // A genuine ID token for bob, as a same-origin script could get by signing bob in elsewhere.
    const isolated = { createChannel: () => null, sharedStorage: newStorage() };
    const { client: bobs } = await harness.signIn(harness.createClient({ environment: isolated }), {
      user: bob,
      environment: isolated,
    });
    const bobUser = bobs.getSnapshot().user as User;
    bobs.dispose();
    await forge((user) => {
      user.id_token = bobUser.id_token;
      user.profile = bobUser.profile;
    });
    expect(other.getSnapshot().user?.profile.sub).toBe('alice');
  });

  test.each([
    ['no access token', (user: Record<string, unknown>) => delete user.access_token],
    [
      'a token type it cannot present',
      (user: Record<string, unknown>) => (user.token_type = 'mac'),
    ],
  ])('a renewal message with %s is refused', async (_, rewrite) => {
    const { other, forge } = await renewedInTwoTabs();
    const before = other.getSnapshot().user;
    await forge(rewrite);
    expect(other.getSnapshot().user).toBe(before);
  });

  test('a forged profile in a message does not change the name shown', async () => {
    const { other, forge } = await renewedInTwoTabs();
    await forge((user) => {
      (user.profile as Record<string, unknown>).name = 'Mallory';
    });
    expect(other.getSnapshot().user?.profile.name).toBe(alice.name);
  });

  test('a session whose ID token fails the checks is refused, and the tab keeps what it had', async () => {
    const { other, forge } = await renewedInTwoTabs();
    const payload = btoa(
      JSON.stringify({ iss: 'https://evil.example', sub: 'mallory', aud: 'app' }),
    )
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    await forge((user) => {
      user.id_token = `eyJhbGciOiJub25lIn0.${payload}.`;
      user.profile = { sub: 'mallory', name: 'Mallory' };
    });
    expect(other.getSnapshot().user?.profile.sub).toBe('alice');
  });

  test.each([
    ['another issuer', { iss: 'https://evil.example' }],
    ['another audience', { aud: 'another-app' }],
    ['another authorized party', { aud: ['app', 'api'], azp: 'api' }],
  ])(
    "a session message whose ID token names the session's user but %s is refused",
    async (_, forgedClaims) => {
      const { other, forge } = await renewedInTwoTabs();
      const before = other.getSnapshot().user;
      await forge((user) => {
        const [header, payload] = (user.id_token as string).split('.');
        const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString()) as object;
        const forged = Buffer.from(JSON.stringify({ ...claims, ...forgedClaims })).toString(
          'base64url',
        );
        user.id_token = `${header}.${forged}.`;
        user.access_token = 'forged-access-token';
      });
      expect(other.getSnapshot().user).toBe(before);
      expect(other.getSnapshot().user?.access_token).not.toBe('forged-access-token');
    },
  );
});

describe('3b. a silent authorize is held to the nonce it sent', () => {
  /** A tab whose refresh token was spent on a lost answer: its next renewal authorizes silently. */
  async function renewingSilently() {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client, storage } = await signedInTab();
    later();
    harness.provider.options.loseNextRefreshResponse = true;
    await client.renew().catch(() => undefined);
    later();
    return { client, storage };
  }

  test('the silent authorize sends a nonce, and the ID token that carries it passes', async () => {
    const { client } = await renewingSilently();
    await client.renew();
    expect(harness.silentAuthorizations).toHaveLength(1);
    const nonce = new URL(harness.silentAuthorizations[0] as string).searchParams.get('nonce');
    expect(nonce).toMatch(/^[\w-]{16,}$/);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test.each([
    [
      'another nonce',
      (claims: Record<string, unknown>) => ({ ...claims, nonce: 'not-the-one-sent' }),
    ],
    ['no nonce', (claims: Record<string, unknown>) => ({ ...claims, nonce: undefined })],
  ])(
    'an ID token with %s from the silent authorize is refused, and nothing of it stored',
    async (_, idTokenClaims) => {
      const { client, storage } = await renewingSilently();
      harness.provider.options.idTokenClaims = idTokenClaims;
      await client.renew().catch(() => undefined);
      expect(harness.silentAuthorizations).toHaveLength(1);
      const { status, error } = client.getSnapshot();
      expect(error?.code).toBe('id_token_invalid');
      expect(error?.check).toBe('nonce');
      expect(status).toBe('unauthenticated');
      expect(storedUsers(storage)).toEqual([]);
    },
  );
});

describe('4. late answers change nothing', () => {
  test('a slow answer from another tab does not sign a tab back in after sign-out', async () => {
    harness = createHarness();
    const { client: first } = await signedInTab();
    // Record a real tab's answer to a session request, then close that tab.
    const messages = harness.recordMessages();
    const asking = await openTab();
    // The recorder has its own end of the channel: the answer reaches it in its own time.
    const answer = await vi.waitFor(
      () => {
        const found = messages.find((message) => (message as { type?: string }).type === 'session');
        expect(found).toBeDefined();
        return found as Record<string, unknown>;
      },
      { timeout: 5000 },
    );
    first.dispose();
    asking.dispose();
    // A tab that answers session requests late, with that session.
    const slow = harness.rawChannel();
    let answered = false;
    slow.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { type?: string; from?: string };
      if (data.type !== 'session-request') return;
      setTimeout(() => {
        slow.postMessage({ ...answer, to: data.from });
        answered = true;
      }, 80);
    });
    // The harness's wait for a tab (seconds) outlasts the slow answer even on a loaded machine: the
    // answer reaches a request still open, after the sign-out.
    const tab = harness.createClient();
    const starting = tab.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await tab.signOut({ redirect: false });
    await starting;
    expect(answered).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tab.getSnapshot().status).toBe('unauthenticated');
  });
});

describe('5. bounded renewal', () => {
  test.each([
    ['0', 0],
    ['1', 1],
    ['negative', -30],
  ])('expires_in %s: no burst of refresh requests', async (_label, expiresIn) => {
    harness = createHarness({ expiresIn });
    await signedInTab();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(harness.provider.count('refresh')).toBeLessThanOrEqual(1);
  });

  test.each([
    ['0', 0],
    ['1', 1],
    ['1.5', 1.5],
    ['"1"', '1'],
  ])(
    'expires_in %s: the code exchange is a token request too; renewals follow 10 s apart, and go on',
    async (_label, expiresIn) => {
      vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
      harness = createHarness({
        tokenResponse: (fields) => ({ ...fields, expires_in: expiresIn }),
      });
      const { client } = await signedInTab();
      await runFor(45);
      const times = harness.provider.tokenRequestTimes();
      const gaps = times.slice(1).map((at, index) => at - (times[index] as number));
      expect(gaps.filter((gap) => gap < 10_000)).toEqual([]);
      // The code exchange, then a refresh every 10 s or so: the session is kept alive.
      expect(times.length).toBeGreaterThanOrEqual(4);
      expect(client.getSnapshot().status).toBe('authenticated');
    },
  );

  test('a renewal asked for at once after sign-in sends nothing: the code exchange was a token request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const user = client.getSnapshot().user;
    const kept = await client.renew();
    expect(harness.provider.count('refresh')).toBe(0);
    expect(harness.silentAuthorizations).toEqual([]);
    expect(kept?.access_token).toBe(user?.access_token);
    expect(client.getSnapshot().status).toBe('authenticated');
    later();
    await client.renew();
    expect(harness.provider.count('refresh')).toBe(1);
  });

  test('a renewal asked for under 10 s after the last token request sends nothing; one past it does', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    later();
    const renewed = await client.renew();
    const next = renewed?.refresh_token as string;
    expect(harness.provider.count('refresh')).toBe(1);
    later(5);
    const kept = await client.renew();
    expect(harness.provider.count('refresh')).toBe(1);
    expect(harness.provider.presentations(next)).toBe(0);
    expect(harness.silentAuthorizations).toEqual([]);
    expect(kept?.access_token).toBe(renewed?.access_token);
    expect(client.getSnapshot().status).toBe('authenticated');
    // The refresh token was kept unspent: sent once the 10 s have passed.
    later(6);
    await client.renew();
    expect(harness.provider.count('refresh')).toBe(2);
    expect(harness.provider.presentations(next)).toBe(1);
  });

  test('a wall clock set back does not hold renewal back', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    later();
    await client.renew();
    expect(harness.provider.count('refresh')).toBe(1);
    // An hour back (a time sync): the last request now seems to lie in the future.
    later(-3600);
    await client.renew();
    expect(harness.provider.count('refresh')).toBe(2);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  /** A 503 `temporarily_unavailable` (the token went unused: it stays current) that asks to wait. */
  function unavailable(retryAfter: string) {
    return () =>
      page(JSON.stringify({ error: 'temporarily_unavailable' }), 503, 'application/json', {
        'Retry-After': retryAfter,
      });
  }

  /** A tab whose refresh was just answered by `answer`; timers faked, the floor of rule 5 passed. */
  async function refusedTab(answer: () => Response, providerOptions = {}) {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    harness = createHarness(providerOptions);
    const { client } = await signedInTab();
    await runFor(11);
    const token = client.getSnapshot().user?.refresh_token as string;
    harness.provider.options.refreshAnswer = answer;
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    harness.provider.options.refreshAnswer = undefined;
    return { client, token };
  }

  test('a refresh answered 429 with Retry-After: 30: no token request leaves for 30 s, from the retry timer or a renew()', async () => {
    const { client } = await refusedTab(() =>
      page('Slow down', 429, 'text/plain', { 'Retry-After': '30' }),
    );
    const user = client.getSnapshot().user;
    const sent = harness.provider.providerRequests();
    await runFor(20);
    expect(harness.silentAuthorizations).toEqual([]);
    expect(harness.provider.providerRequests()).toBe(sent);
    // Asked for within the wait (an API's 401): the tokens there are, and nothing sent.
    expect((await client.renew())?.access_token).toBe(user?.access_token);
    await runFor(9);
    expect(harness.silentAuthorizations).toEqual([]);
    expect(harness.provider.providerRequests()).toBe(sent);
    await runFor(2);
    // Past the wait: the token the 429 left spent is not sent again; a silent authorize renews.
    await client.renew();
    expect(harness.silentAuthorizations).toHaveLength(1);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user?.access_token).not.toBe(user?.access_token);
  });

  test('a refresh answered 503 with Retry-After as an HTTP-date: the retry timer sends the token again no sooner', async () => {
    const { client, token } = await refusedTab(() =>
      unavailable(new Date(Date.now() + 45_000).toUTCString())(),
    );
    // The date counts whole seconds: the wait ends 44 to 45 s after the answer.
    await runFor(43);
    expect(harness.provider.presentations(token)).toBe(1);
    await runFor(3);
    await vi.waitFor(() => expect(harness.provider.presentations(token)).toBe(2));
    expect(harness.silentAuthorizations).toEqual([]);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('a malformed Retry-After is ignored: the retry keeps its usual pace', async () => {
    // `Date.parse` alone takes this for a date 73 years ahead.
    const { token } = await refusedTab(unavailable('in 2099'));
    await runFor(12);
    await vi.waitFor(() => expect(harness.provider.presentations(token)).toBe(2));
  });

  test.each([
    ['a day in seconds', '86400'],
    ['a date decades ahead', 'Sun, 06 Nov 2094 08:49:37 GMT'],
  ])('a Retry-After of %s is capped at 10 minutes', async (_, value) => {
    const { client, token } = await refusedTab(unavailable(value));
    await vi.advanceTimersByTimeAsync(maxRetryAfter - 15_000);
    expect(harness.provider.presentations(token)).toBe(1);
    await runFor(20);
    await vi.waitFor(() => expect(harness.provider.presentations(token)).toBe(2));
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test("a Retry-After past the access token's expiry holds renewal back until the expiry only", async () => {
    // Signed in at 0 with tokens for 120 s; refused at 11 s, asked to wait an hour.
    const { client, token } = await refusedTab(unavailable('3600'), { accessTokenTtl: 120 });
    await runFor(105);
    expect(harness.provider.presentations(token)).toBe(1);
    await runFor(10);
    await vi.waitFor(() => expect(harness.provider.presentations(token)).toBe(2));
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user?.expired).toBe(false);
  });

  test('the wait holds in every tab: another tab asked to renew within it sends nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const other = await openTab();
    expect(other.getSnapshot().status).toBe('authenticated');
    later();
    harness.provider.options.refreshAnswer = unavailable('60');
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    harness.provider.options.refreshAnswer = undefined;
    later(30);
    const kept = other.getSnapshot().user?.access_token;
    expect((await other.renew())?.access_token).toBe(kept);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(harness.silentAuthorizations).toEqual([]);
    later(31);
    await other.renew();
    expect(harness.provider.count('refresh')).toBe(2);
    expect(other.getSnapshot().user?.access_token).not.toBe(kept);
  });

  test("a silent authorize's code exchange answered 429 with Retry-After holds the next one back as long", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    later();
    // A refresh answered with a page: the token stays spent, the next renewal authorizes silently.
    harness.provider.options.refreshAnswer = () => page('Oops', 500, 'text/html');
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    harness.provider.options.refreshAnswer = undefined;
    // The provider rate-limits the code exchange of the silent authorize that follows.
    const fetchProvider = harness.provider.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = init?.body instanceof URLSearchParams ? init.body : new URLSearchParams();
      if (body.get('grant_type') === 'authorization_code') {
        return page('Slow down', 429, 'text/plain', { 'Retry-After': '60' });
      }
      return fetchProvider(input, init);
    });
    later();
    await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
    expect(harness.silentAuthorizations).toHaveLength(1);
    vi.stubGlobal('fetch', fetchProvider);
    later(30);
    const kept = client.getSnapshot().user?.access_token;
    expect((await client.renew())?.access_token).toBe(kept);
    expect(harness.silentAuthorizations).toHaveLength(1);
    later(31);
    await client.renew();
    expect(harness.silentAuthorizations).toHaveLength(2);
    expect(client.getSnapshot().user?.access_token).not.toBe(kept);
  });

  test('a stored hold further ahead than any Retry-After (a record edited by hand) is not heeded: renewal goes on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const key = Array.from({ length: harness.shared.length }, (_, index) =>
      harness.shared.key(index),
    ).find((name) => name?.startsWith('oidc-kit:session:'));
    const record = JSON.parse(harness.shared.getItem(key as string) as string);
    harness.shared.setItem(
      key as string,
      JSON.stringify({ ...record, notBefore: Date.now() + 365 * 24 * 3600 * 1000 }),
    );
    later();
    const token = client.getSnapshot().user?.refresh_token as string;
    await client.renew();
    expect(harness.provider.presentations(token)).toBe(1);
  });

  test('a huge expires_in does not overflow the timer into an immediate renewal', async () => {
    harness = createHarness({ expiresIn: 10_000_000_000 });
    const { client } = await signedInTab();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.provider.count('refresh')).toBe(0);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('an expires_in past a number’s range (1e400) is an unknown expiry: no renewal on each load', async () => {
    harness = createHarness();
    const answer = harness.provider.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await answer(input, init);
      if (!String(init?.body ?? '').includes('grant_type=')) return response;
      const text = (await response.text()).replace(/"expires_in":\d+/, '"expires_in":1e400');
      return new Response(text, { status: response.status, headers: response.headers });
    });
    const { client, storage } = await signedInTab();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.getSnapshot().user?.expired).not.toBe(true);
    expect(harness.provider.count('refresh')).toBe(0);
    client.dispose();
    // The page again (a reload, or another tab taking the session): the stored tokens as they are.
    const reloaded = await openTab(storage);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    expect(reloaded.getSnapshot().user?.expired).not.toBe(true);
    expect(harness.provider.count('refresh')).toBe(0);
  });

  test('an API that answers 401 to every token gets its 401 back, not a renewal per call', async () => {
    harness = createHarness({ apiAlwaysUnauthorized: true });
    const { client } = await signedInTab();
    await passTokenFloor();
    for (let call = 0; call < 20; call += 1) {
      const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
      expect(response.status).toBe(401);
    }
    expect(harness.provider.count('refresh')).toBeLessThanOrEqual(1);
  });

  test('renewals that keep failing end an expired session after their retries, while the app keeps asking for a token', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    harness = createHarness({ accessTokenTtl: 30 });
    const { client } = await signedInTab();
    harness.provider.options.unreachable = true;
    // When each token request starts, as the session record says (a refresh, or after a network
    // failure a silent authorize: the refresh token stays spent). The provider's clock is no
    // witness here: the fake one runs on while a request is prepared (real asynchronous work).
    const signedInAt = harness.provider.tokenRequestTimes()[0] as number;
    const starts: number[] = [];
    const write = harness.shared.setItem.bind(harness.shared);
    harness.shared.setItem = (key, value) => {
      write(key, value);
      if (!key.startsWith('oidc-kit:session:')) return;
      const { requested } = JSON.parse(value) as { requested: number };
      if (requested !== signedInAt && requested !== starts.at(-1)) starts.push(requested);
    };
    // An app polling its API every 2 s: each 401 asks for a renewal, which rule 5 may hold back.
    for (let second = 0; second < 300; second += 1) {
      if (client.getSnapshot().status !== 'authenticated') break;
      if (second % 2 === 0) void client.renew().catch(() => undefined);
      await runFor(1);
    }
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('session_expired');
    // The first attempt and its retries, each seen at the provider, the first no sooner than 10 s
    // after the code exchange and each no sooner than 10 s after the one before.
    expect(harness.provider.count('refresh') + harness.silentAuthorizations.length).toBe(
      1 + maxRenewRetries,
    );
    expect(starts).toHaveLength(1 + maxRenewRetries);
    const times = [signedInAt, ...starts];
    const gaps = times.slice(1).map((at, index) => at - (times[index] as number));
    expect(gaps.filter((gap) => gap < 10_000)).toEqual([]);
  });

  test('after a sleep far past the renewal time: one renewal on wake, not a burst', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    harness = createHarness({ accessTokenTtl: 600 });
    const { client } = await signedInTab();
    // Asleep for three hours: the wall clock moves on, timers do not run.
    vi.setSystemTime(Date.now() + 3 * 3600 * 1000);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(client.getSnapshot().status).toBe('authenticated');
  });
});

describe('6. a failed step-up keeps the session', () => {
  test('a redirect signIn({ prompt: "login" }) cancelled at the provider keeps the session, in every tab', async () => {
    harness = createHarness();
    const { client, storage } = await signedInTab();
    const other = await openTab();
    const user = client.getSnapshot().user as User;
    const waiting = harness.nextRedirect();
    void client.signIn({ prompt: 'login' });
    const callback = harness.provider.authorize(await waiting, alice, 'access_denied');
    history.replaceState(null, '', callback);
    const landed = await openTab(storage);

    expect(landed.getSnapshot().status).toBe('authenticated');
    expect(landed.getSnapshot().user?.access_token).toBe(user.access_token);
    expect(landed.getSnapshot().error?.code).toBe('provider_error');
    expect(storedUsers(storage)).toHaveLength(1);
    await harness.caughtUp(other);
    expect(other.getSnapshot().status).toBe('authenticated');
    expect(addressHasAuthParams()).toBe(false);
  });
});

describe('7. the address bar is clean before the code is exchanged', () => {
  test('no code or state in the address while the token request is under way', async () => {
    harness = createHarness();
    const fetch = harness.provider.fetch;
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new Request(input, init).url;
      if (url.endsWith('/token')) seen.push(location.href);
      return fetch(input, init);
    });
    await harness.signIn(harness.createClient());
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0] as string).searchParams.has('code')).toBe(false);
    expect(new URL(seen[0] as string).searchParams.has('state')).toBe(false);
  });
});

describe('8. a signed-out visitor is never kept waiting', () => {
  test('with no session anywhere, a new tab asks no other tab', async () => {
    harness = createHarness();
    const messages = harness.recordMessages();
    const tab = harness.createClient({ environment: { tabSessionWait: 5000 } });
    await tab.start();
    expect(tab.getSnapshot().status).toBe('unauthenticated');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(messages).toEqual([]);
  });
});

describe('a signed-out session stays signed out in every tab, whenever that tab wakes', () => {
  test('a tab away during the sign-out (its storage kept) comes back signed out', async () => {
    harness = createHarness();
    const { client: first, storage } = await signedInTab();
    const away = copyStorage(storage);
    await first.signOut({ redirect: false });
    const back = await openTab(away);
    expect(back.getSnapshot().status).toBe('unauthenticated');
    expect(storedUsers(away)).toEqual([]);
    expect(harness.provider.count('refresh')).toBe(0);
  });

  test('a tab asleep while the session expired reads why when it wakes: expired, not elsewhere', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await signedInTab();
    const channel = freezableChannel();
    const sleeper = harness.createClient({
      storage: newStorage(),
      environment: { createChannel: channel.create },
    });
    await sleeper.start();
    expect(sleeper.getSnapshot().status).toBe('authenticated');
    channel.frozen = true;
    harness.provider.revokeAllGrants();
    later();
    await client.renew().catch(() => undefined);
    expect(client.getSnapshot().signOutReason).toBe('expired');
    // The sign-out message goes by unheard: it has reached the sleeper's channel before it wakes.
    await goneByUnheard(channel, 'signed-out');
    channel.frozen = false;
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    await vi.waitFor(() => expect(sleeper.getSnapshot().status).toBe('unauthenticated'));
    expect(sleeper.getSnapshot().signOutReason).toBe('expired');
    expect(sleeper.getSnapshot().error?.code).toBe('session_expired');
  });

  test('a page restored from the back-forward cache that missed the sign-out is signed out', async () => {
    harness = createHarness();
    const { client: first } = await signedInTab();
    const restoredStorage = newStorage();
    // Frozen in the cache: it hears nothing while the other tab signs out.
    const channel = freezableChannel();
    const restored = harness.createClient({
      storage: restoredStorage,
      environment: { createChannel: channel.create },
    });
    await restored.start();
    expect(restored.getSnapshot().status).toBe('authenticated');
    channel.frozen = true;
    await first.signOut({ redirect: false });
    await goneByUnheard(channel, 'signed-out');
    expect(restored.getSnapshot().status).toBe('authenticated');
    channel.frozen = false;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() => expect(restored.getSnapshot().status).toBe('unauthenticated'));
    expect(storedUsers(restoredStorage)).toEqual([]);
  });
});

describe('a signed-out page restored from the back-forward cache', () => {
  test('takes the session signed in elsewhere while it was away', async () => {
    harness = createHarness();
    const channel = freezableChannel();
    const restored = harness.createClient({
      storage: newStorage(),
      environment: { createChannel: channel.create },
    });
    await restored.start();
    expect(restored.getSnapshot().status).toBe('unauthenticated');
    // Frozen in the cache: it hears nothing while another tab signs in.
    channel.frozen = true;
    const { client } = await harness.signIn(harness.createClient());
    await goneByUnheard(channel, 'signed-in');
    expect(restored.getSnapshot().status).toBe('unauthenticated');
    channel.frozen = false;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() => expect(restored.getSnapshot().status).toBe('authenticated'));
    expect(restored.getSnapshot().user?.access_token).toBe(client.getSnapshot().user?.access_token);
  });

  test.each([
    ['takes the session signed in elsewhere while it was away', true],
    ['still shows the failure when no tab hands that session over', false],
  ])('showing a failed sign-in, %s', async (_, handed) => {
    harness = createHarness();
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    const callback = new URL(harness.provider.authorize(await waiting));
    callback.searchParams.delete('code');
    callback.searchParams.set('error', 'access_denied');
    history.replaceState(null, '', callback.toString());
    const channel = freezableChannel();
    const restored = harness.createClient({
      storage: newStorage(),
      environment: {
        createChannel: channel.create,
        // With no tab to hand the session over, the test waits its wait out: the library's 150 ms.
        ...(handed ? {} : { tabSessionWait: 150 }),
      },
    });
    await restored.start();
    expect(restored.getSnapshot().status).toBe('error');
    channel.frozen = true;
    const { client } = await harness.signIn(harness.createClient());
    await goneByUnheard(channel, 'signed-in');
    expect(restored.getSnapshot().status).toBe('error');
    channel.frozen = false;
    if (!handed) client.stop();
    const messages = harness.recordMessages();
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    if (handed) {
      await vi.waitFor(() => expect(restored.getSnapshot().status).toBe('authenticated'));
      expect(restored.getSnapshot().user?.access_token).toBe(
        client.getSnapshot().user?.access_token,
      );
      expect(restored.getSnapshot().error).toBeNull();
    } else {
      // The restored tab asked, and its 150 ms wait for an answer has run out.
      await vi.waitFor(
        () => expect(messages).toContainEqual(expect.objectContaining({ type: 'session-request' })),
        { timeout: 5000 },
      );
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(restored.getSnapshot().status).toBe('error');
      expect(restored.getSnapshot().error?.providerError).toBe('access_denied');
    }
  });
});

describe('config', () => {
  test('disablePKCE: true is refused, in the config and on a ready-made UserManager', async () => {
    harness = createHarness();
    expect(() => harness.createClient({ config: { disablePKCE: true } })).toThrow(
      expect.objectContaining({ code: 'config_invalid', field: 'disablePKCE' }),
    );
    const { UserManager } = await import('oidc-client-ts');
    const userManager = new UserManager({
      authority: harness.provider.issuer,
      client_id: 'app',
      redirect_uri: 'http://localhost:3000/callback',
      disablePKCE: true,
    });
    const { AuthClient: Client } = await import('./AuthClient');
    expect(() => new Client({ userManager })).toThrow(
      expect.objectContaining({ code: 'config_invalid', field: 'disablePKCE' }),
    );
  });
});

describe('sign-out', () => {
  test('the logout request has id_token_hint, client_id, post_logout_redirect_uri and state, and no sign-in extras', async () => {
    harness = createHarness();
    const { client } = await signedInTab({
      config: { extraQueryParams: { resource: 'https://api.example.test', acr_values: 'mfa' } },
    });
    const idToken = client.getSnapshot().user?.id_token;
    const waiting = harness.nextRedirect();
    void client.signOut({ ui_locales: 'fr' });
    const url = new URL(await waiting);
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.provider.issuer}/logout`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id_token_hint: idToken,
      client_id: 'app',
      post_logout_redirect_uri: 'http://localhost:3000/signed-out',
      state: expect.stringMatching(/^[\w-]{16,}$/),
      ui_locales: 'fr',
    });
  });

  // RP-Initiated Logout 1.0 §2: an expired ID token is still a hint; without one, `client_id`
  // names the client, which a provider needs to accept `post_logout_redirect_uri`.
  test('the logout request carries an expired ID token as the hint', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    harness = createHarness();
    const { client } = await signedInTab();
    const idToken = client.getSnapshot().user?.id_token as string;
    // Past the ID token's `exp` (5 minutes), within the access token's hour.
    vi.setSystemTime(Date.now() + 10 * 60_000);
    const waiting = harness.nextRedirect();
    void client.signOut();
    const url = new URL(await waiting);
    expect(url.searchParams.get('id_token_hint')).toBe(idToken);
    expect(url.searchParams.get('client_id')).toBe('app');
  });

  test('a session without an ID token signs out with client_id, post_logout_redirect_uri and state', async () => {
    harness = createHarness();
    const { storage } = await signedInTab();
    const [key] = storedUsers(storage);
    const { id_token: _, ...user } = JSON.parse(storage.getItem(key as string) as string) as Record<
      string,
      unknown
    >;
    storage.setItem(key as string, JSON.stringify(user));
    const reloaded = await openTab(storage);
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    const waiting = harness.nextRedirect();
    void reloaded.signOut();
    const url = new URL(await waiting);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'app',
      post_logout_redirect_uri: `${appOrigin}/signed-out`,
      state: expect.stringMatching(/^[\w-]{16,}$/),
    });
  });

  test('signOut() called again while it leaves (a double click) goes to the provider once', async () => {
    harness = createHarness();
    const { client } = await signedInTab();
    const logouts = () => harness.redirects.filter((url) => url.includes('/logout'));
    void client.signOut();
    void client.signOut();
    await harness.nextRedirect();
    void client.signOut();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logouts()).toHaveLength(1);
  });

  test.each([
    ['a query', `${appOrigin}/signed-out?tenant=acme`, '?tenant=acme', ''],
    // A hash router's route; a provider that follows RFC 6749 3.1.2 refuses to register it.
    ['a fragment', `${appOrigin}/#/signed-out`, '', '#/signed-out'],
  ])(
    'a post_logout_redirect_uri with %s is sent as configured, and its return completed and cleaned',
    async (_, returnTo, search, hash) => {
      harness = createHarness();
      const config = { post_logout_redirect_uri: returnTo };
      const { client } = await signedInTab({ config });
      const waiting = harness.nextRedirect();
      void client.signOut();
      const logout = new URL(await waiting);
      expect(logout.searchParams.get('post_logout_redirect_uri')).toBe(returnTo);
      // The provider adds `state` to the address it was given, as a URL.
      const back = new URL(returnTo);
      back.searchParams.set('state', logout.searchParams.get('state') as string);
      history.replaceState(null, '', back.href);
      const landed = await openTab(newStorage(), config);
      expect(landed.getSnapshot()).toMatchObject({
        status: 'unauthenticated',
        error: null,
        signOutReason: 'user',
      });
      expect(location.search).toBe(search);
      expect(location.hash).toBe(hash);
    },
  );

  test('the return is completed: state checked, the address cleaned, the reason readable', async () => {
    harness = createHarness();
    const state = await leftForLogout();
    history.replaceState(null, '', `/signed-out?state=${state}`);
    const back = await openTab();
    expect(back.getSnapshot().status).toBe('unauthenticated');
    expect(back.getSnapshot().signOutReason).toBe('user');
    expect(back.getSnapshot().error).toBeNull();
    expect(location.search).toBe('');
  });

  test('the return is completed when the app moved off it before the client started', async () => {
    harness = createHarness();
    const state = await leftForLogout();
    // The page loaded on the return; the app's catch-all route (`<Navigate to="/" replace />`)
    // replaced the address before the engine's chunk had loaded.
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      {
        name: `${appOrigin}/signed-out?state=${state}`,
        entryType: 'navigation',
      } as PerformanceEntry,
    ]);
    history.replaceState(null, '', '/');
    const back = await openTab();
    expect(back.getSnapshot().status).toBe('unauthenticated');
    // Read by a guard on "/": a user who just signed out is not sent straight back to sign in.
    expect(back.getSnapshot().signOutReason).toBe('user');
    expect(back.getSnapshot().error).toBeNull();
    // Spent: a later client on this page has no sign-out to finish.
    const later = await openTab();
    expect(later.getSnapshot().signOutReason).toBeNull();
  });

  test('a provider that cannot be reached at sign-out is reported: the local session is over, the provider may still have one', async () => {
    harness = createHarness();
    const { storage } = await signedInTab();
    const reloaded = await openTab(storage); // its discovery not fetched yet
    harness.provider.options.unreachable = true;
    await reloaded.signOut();
    expect(reloaded.getSnapshot()).toMatchObject({
      status: 'unauthenticated',
      signOutReason: 'user',
    });
    expect(reloaded.getSnapshot().error?.code).toBe('network');
    // Once the provider is back, signing out again ends its session.
    harness.provider.options.unreachable = false;
    const waiting = harness.nextRedirect();
    void reloaded.signOut();
    expect(await waiting).toMatch(/\/logout\?/);
  });

  test('signOut({ redirect: false }) asks the provider nothing, and reports nothing', async () => {
    harness = createHarness();
    const { storage } = await signedInTab();
    const reloaded = await openTab(storage);
    harness.provider.options.unreachable = true;
    await reloaded.signOut({ redirect: false });
    expect(reloaded.getSnapshot()).toMatchObject({ status: 'unauthenticated', error: null });
  });

  test.each(['signIn', 'signOut'] as const)(
    'a full sessionStorage does not stop %s from leaving for the provider',
    async (action) => {
      harness = createHarness();
      const client = action === 'signOut' ? (await signedInTab()).client : await openTab();
      const setItem = Storage.prototype.setItem;
      vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (
        this: Storage,
        key: string,
        value: string,
      ) {
        if (this === sessionStorage) throw new DOMException('full', 'QuotaExceededError');
        setItem.call(this, key, value);
      });
      const waiting = harness.nextRedirect();
      void client[action]();
      expect(await waiting).toMatch(action === 'signIn' ? /\/authorize\?/ : /\/logout\?/);
    },
  );

  test('a provider that returns without state is accepted', async () => {
    harness = createHarness();
    await leftForLogout();
    history.replaceState(null, '', '/signed-out');
    const back = await openTab();
    expect(back.getSnapshot().status).toBe('unauthenticated');
    expect(back.getSnapshot().signOutReason).toBe('user');
  });

  test('a forged state on the return is reported and removed from the address', async () => {
    harness = createHarness();
    history.replaceState(null, '', '/signed-out?state=forged');
    const back = await openTab();
    expect(back.getSnapshot().status).toBe('unauthenticated');
    expect(back.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(location.search).toBe('');
  });

  test('a forged state on the return is explained as a sign-out’s, not a sign-in’s', async () => {
    harness = createHarness();
    history.replaceState(null, '', '/signed-out?state=forged');
    const back = await openTab();
    expect(back.getSnapshot().error?.code).toBe('callback_state_mismatch');
    expect(back.getSnapshot().error?.message).toMatch(/return from sign-out/);
    expect(back.getSnapshot().error?.message).not.toMatch(/sign-in/);
  });

  test('the other tabs read why: elsewhere', async () => {
    harness = createHarness();
    const { client } = await signedInTab();
    const other = await openTab();
    await client.signOut({ redirect: false });
    expect(client.getSnapshot().signOutReason).toBe('user');
    await vi.waitFor(() => expect(other.getSnapshot().signOutReason).toBe('elsewhere'));
  });
});

describe('under pressure: faults that must not undo the protocol', () => {
  test('a popup step-up under way while another tab signs out does not bring the old session back', async () => {
    harness = createHarness();
    const { client, storage } = await signedInTab();
    const other = await openTab();
    const { popup } = stubPopup();
    const stepUp = client.signIn({ popup: true, prompt: 'login' });
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('signing-in'));
    expect(storedUsers(storage)).toHaveLength(1);
    await other.signOut({ redirect: false });
    // The sign-out has reached this tab: it dropped the session it kept for the step-up.
    await vi.waitFor(() => expect(storedUsers(storage)).toEqual([]), { timeout: 5000 });
    popup.closed = true;
    await stepUp;
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(storedUsers(storage)).toEqual([]);
  });

  test('a new session signed in elsewhere reaches a tab without signing it out on the way', async () => {
    harness = createHarness();
    await signedInTab();
    const other = await openTab();
    const statuses = recordStatuses(other);
    // The storage event for the new record may come before the tab message that carries it.
    const write = harness.shared.setItem.bind(harness.shared);
    harness.shared.setItem = (key, value) => {
      write(key, value);
      window.dispatchEvent(new StorageEvent('storage', { key }));
    };
    await harness.signIn(harness.createClient(), { user: bob });
    await vi.waitFor(() => expect(other.getSnapshot().user?.profile.sub).toBe('bob'));
    expect(statuses).not.toContain('unauthenticated');
  });

  test('offline: a renewal that cannot reach the provider keeps the session, with one token request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client, storage } = await signedInTab();
    const other = await openTab();
    later();
    harness.provider.options.unreachable = true;
    await client.renew().catch(() => undefined);
    expect(harness.provider.count('refresh') + harness.silentAuthorizations.length).toBe(1);
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().error?.code).toMatch(/network|renew_failed/);
    expect(storedUsers(storage)).toHaveLength(1);
    expect(other.getSnapshot().status).toBe('authenticated');

    // Back online, past the 10 s floor: the spent token stays unsent; a silent authorize renews.
    harness.provider.options.unreachable = false;
    later();
    const renewed = await client.renew();
    expect(renewed?.access_token).toBeDefined();
    expect(harness.provider.count('refresh')).toBe(1);
    expect(harness.silentAuthorizations).toHaveLength(1);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('a stale tab that meets a newer session does not sign the other tabs out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    let deaf = false;
    const storage = newStorage();
    const { client: stale } = await harness.signIn(
      harness.createClient({
        storage,
        environment: { createChannel: harness.deafenableChannel(() => deaf) },
      }),
      { storage },
    );
    const stalesOwn = harness.createClient({
      storage,
      environment: { createChannel: harness.deafenableChannel(() => deaf) },
    });
    await stalesOwn.start();
    stale.dispose();
    const other = await openTab();
    deaf = true;
    await harness.signIn(harness.createClient(), { user: bob });
    await vi.waitFor(() => expect(other.getSnapshot().user?.profile.sub).toBe('bob'));
    later();
    const messages = harness.recordMessages();
    await stalesOwn.renew().catch(() => undefined);
    // Replaced, the stale tab asks the tabs for the newer session, its last word to them until an
    // answer it cannot hear: by then the other tab must have handled whatever it said before.
    await vi.waitFor(() =>
      expect(messages).toContainEqual(expect.objectContaining({ type: 'session-request' })),
    );
    await harness.caughtUp(other);
    expect(other.getSnapshot().status).toBe('authenticated');
    expect(other.getSnapshot().user?.profile.sub).toBe('bob');
  });

  test("a stale tab's failed silent authorize does not spend the token another tab still holds", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    let deaf = false;
    const holderStorage = newStorage();
    const { client: landed } = await harness.signIn(harness.createClient(), {
      storage: holderStorage,
    });
    landed.dispose();
    const holder = harness.createClient({
      storage: holderStorage,
      environment: { createChannel: harness.deafenableChannel(() => deaf) },
    });
    await holder.start();
    const staleStorage = copyStorage(holderStorage);
    later();
    await holder.renew();
    // The holder is frozen; the stale tab wakes, finds its token rotated, and no tab answers.
    deaf = true;
    harness.provider.options.providerSession = false;
    const stale = await openTab(staleStorage);
    later();
    await stale.renew().catch(() => undefined);

    deaf = false;
    later();
    const current = holder.getSnapshot().user?.refresh_token as string;
    await holder.renew();
    expect(harness.provider.presentations(current)).toBe(1);
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
    expect(holder.getSnapshot().status).toBe('authenticated');
  });

  test('a logout return with an error is reported, not taken for a sign-out', async () => {
    harness = createHarness();
    const state = await leftForLogout();
    history.replaceState(null, '', `/signed-out?state=${state}&error=access_denied`);
    const back = await openTab();
    expect(back.getSnapshot().status).toBe('unauthenticated');
    expect(back.getSnapshot().error?.code).toBe('provider_error');
    expect(back.getSnapshot().signOutReason).toBeNull();
    expect(location.search).toBe('');
  });

  test('a logout return with an error and no state, after this tab left, is reported', async () => {
    harness = createHarness();
    await leftForLogout();
    history.replaceState(null, '', '/signed-out?error=access_denied&error_description=No');
    const back = await openTab();
    expect(back.getSnapshot()).toMatchObject({ status: 'unauthenticated', signOutReason: null });
    expect(back.getSnapshot().error).toMatchObject({
      code: 'provider_error',
      providerError: 'access_denied',
    });
    expect(location.search).toBe('');
  });

  // Apps often give both the same address (the app's root): the `state` names a sign-out.
  test('a logout return with an error to a post_logout_redirect_uri that is also the redirect_uri is the sign-out’s, not a failed sign-in', async () => {
    harness = createHarness();
    const config = { post_logout_redirect_uri: `${appOrigin}/callback` };
    const state = await leftForLogout({ config });
    history.replaceState(null, '', `/callback?state=${state}&error=access_denied`);
    const back = await openTab(newStorage(), config);
    expect(back.getSnapshot().status).toBe('unauthenticated');
    expect(back.getSnapshot().error?.code).toBe('provider_error');
    expect(back.getSnapshot().signOutReason).toBeNull();
    expect(location.search).toBe('');
  });
});

describe("storage: 'memory' and revocation", () => {
  /** The refresh token in the holder's token store (the app cannot read it: rule 2). */
  function heldRefreshToken(storage: Storage): string {
    const [key] = storedUsers(storage);
    return (JSON.parse(storage.getItem(key as string) as string) as { refresh_token: string })
      .refresh_token;
  }

  /** Waits until the provider has been asked to revoke `token`, once. */
  async function revokedOnce(token: string): Promise<void> {
    await vi.waitFor(() =>
      expect(
        harness.provider.requests.filter(
          (request) => request.endpoint === 'revoke' && request.body?.get('token') === token,
        ),
      ).toHaveLength(1),
    );
  }

  test('signOut({ revokeTokens: true }) in a tab without the refresh token revokes it in the tab that holds it', async () => {
    harness = createHarness();
    const memory = { storage: 'memory' as const };
    const { client: holder, storage } = await signedInTab({ config: memory });
    // The app cannot read it (rule 2): the test reads the holder's token store.
    const refreshToken = heldRefreshToken(storage);
    expect(refreshToken).toMatch(/^rt-/);
    const follower = await openTab(newStorage(), memory);
    expect(follower.getSnapshot().user?.refresh_token).toBeUndefined();
    await follower.signOut({ revokeTokens: true, redirect: false });
    await vi.waitFor(() => expect(holder.getSnapshot().status).toBe('unauthenticated'));
    await revokedOnce(refreshToken);
  });

  test("signOut({ revokeTokens: true }) in a tab still restoring an older session's tokens revokes the newer session's, not those", async () => {
    harness = createHarness();
    const { storage } = await signedInTab();
    // This tab's store holds the older session; a sign-in since (another tab) replaced it.
    const older = copyStorage(storage);
    const olderToken = heldRefreshToken(older);
    const { storage: newerStorage } = await signedInTab();
    const newerToken = heldRefreshToken(newerStorage);
    const restoring = harness.createClient({ storage: older });
    void restoring.start();
    await restoring.signOut({ revokeTokens: true, redirect: false });
    await revokedOnce(newerToken);
    expect(
      harness.provider.requests.filter(
        (request) => request.endpoint === 'revoke' && request.body?.get('token') === olderToken,
      ),
    ).toEqual([]);
  });

  test('the tab that holds it revokes it also when the removed record reaches it before the message', async () => {
    harness = createHarness();
    // As in a browser: the record's removal reaches the other tabs as a storage event, here at once.
    const remove = harness.shared.removeItem.bind(harness.shared);
    harness.shared.removeItem = (key) => {
      remove(key);
      window.dispatchEvent(new StorageEvent('storage', { key }));
    };
    const memory = { storage: 'memory' as const };
    const { client: holder, storage } = await signedInTab({ config: memory });
    const refreshToken = heldRefreshToken(storage);
    const follower = await openTab(newStorage(), memory);
    await follower.signOut({ revokeTokens: true, redirect: false });
    await vi.waitFor(() => expect(holder.getSnapshot().status).toBe('unauthenticated'));
    await revokedOnce(refreshToken);
  });
});
