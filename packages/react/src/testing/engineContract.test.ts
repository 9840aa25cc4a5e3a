import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import type { AuthContextValue } from '../authContext';
import type { AuthSnapshot } from '../core/authState';
import { AuthError } from '../core/errors';
import type { RoleReader } from '../core/roles';
import { createMockAuthClient } from './createMockAuthClient';
import type { MockAuthClient } from './createMockAuthClient';
import { createTestUser } from './createTestUser';

/*
 * The engine's contract with the React layer (docs/architecture.md), run against the real
 * `AuthClient` (over the fake provider) and the test kit's mock: a test that passes on the mock
 * must not fail on the real client because the mock is more lenient.
 */

const api = 'https://api.example.test';

/** What an engine is made with: a role reader, and the fetch its authenticated fetch calls. */
interface EngineOptions {
  roles?: RoleReader;
  fetch?: typeof fetch;
}

/** An engine behind `AuthContextValue`, and how a test brings it to each state. */
interface Subject {
  /** Not started, the session not known yet. */
  loading(): AuthContextValue;
  /** What makes a started engine's session known: the real client restores it itself. */
  restore(engine: AuthContextValue): void;
  /** Started, nobody signed in. */
  signedOut(options?: EngineOptions): Promise<AuthContextValue>;
  /** Started, a user signed in. */
  signedIn(options?: EngineOptions): Promise<AuthContextValue>;
  /** Started on a sign-in the provider refused (`access_denied`). */
  refused(): Promise<AuthContextValue>;
  /** Signed in, then the session ended at the provider (`session_expired` on renewal). */
  expired(): Promise<AuthContextValue>;
}

let harness: Harness | undefined;
afterEach(() => {
  harness?.dispose();
  harness = undefined;
});

function realClient(): Subject {
  const tabs = () => (harness ??= createHarness());
  const made = ({ roles, fetch }: EngineOptions = {}) => ({
    config: { apiOrigins: [api], ...(roles && { roles }) },
    environment: fetch && { fetch },
  });
  return {
    loading: () => tabs().createClient(),
    restore: () => undefined,
    signedOut: async (options) => {
      const client = tabs().createClient(made(options));
      await client.start();
      return client;
    },
    signedIn: async (options) => (await tabs().signIn(tabs().createClient(), made(options))).client,
    refused: async () => {
      await tabs().landOnCallback({ error: 'access_denied' });
      const client = tabs().createClient();
      await client.start();
      return client;
    },
    expired: async () => {
      const { client } = await tabs().signIn(tabs().createClient());
      await passTokenFloor();
      tabs().provider.revokeAllGrants();
      await client.renew();
      return client;
    },
  };
}

function mockClient(): Subject {
  const made = ({ roles, fetch }: EngineOptions = {}) => ({
    apiOrigins: [api],
    ...(roles && { readRoles: roles }),
    ...(fetch && { fetch }),
  });
  const started = async (client: MockAuthClient) => {
    await client.start();
    return client;
  };
  return {
    loading: () => createMockAuthClient({ state: 'loading' }),
    restore: (engine) => (engine as MockAuthClient).set({ state: 'unauthenticated' }),
    signedOut: (options) =>
      started(createMockAuthClient({ state: 'unauthenticated', ...made(options) })),
    signedIn: (options) =>
      started(createMockAuthClient({ state: 'authenticated', ...made(options) })),
    refused: () => started(createMockAuthClient({ state: 'error' })),
    expired: () =>
      started(
        createMockAuthClient({
          state: 'unauthenticated',
          error: new AuthError('session_expired', ''),
          signOutReason: 'expired',
        }),
      ),
  };
}

/** What every snapshot promises, whatever its status. */
function expectWellFormed(snapshot: AuthSnapshot): void {
  expect(Object.isFrozen(snapshot)).toBe(true);
  expect(snapshot.user !== null, snapshot.status).toBe(snapshot.status === 'authenticated');
  if (snapshot.status !== 'unauthenticated') expect(snapshot.signOutReason).toBeNull();
  if (snapshot.status === 'error') expect(snapshot.error).toBeInstanceOf(AuthError);
}

/** Every snapshot `engine` shows from now on, its current one first. */
function recordSnapshots(engine: AuthContextValue): AuthSnapshot[] {
  const seen = [engine.getSnapshot()];
  engine.subscribe(() => seen.push(engine.getSnapshot()));
  return seen;
}

/** A fetch that records the `Authorization` header of each request. */
function recordingFetch() {
  const authorizations: (string | null)[] = [];
  const send = async (input: RequestInfo | URL, init?: RequestInit) => {
    authorizations.push(new Request(input, init).headers.get('Authorization'));
    return new Response('{}');
  };
  return { authorizations, send: send as typeof fetch };
}

describe.each([
  ['AuthClient', realClient],
  ['createMockAuthClient', mockClient],
])('%s keeps the engine contract', (_name, subject) => {
  test('start() resolves once the session is known', async () => {
    const { loading, restore } = subject();
    const engine = loading();
    expect(engine.getSnapshot().status).toBe('loading');
    const started = engine.start().then(() => engine.getSnapshot().status);
    restore(engine);
    expect(await started).not.toBe('loading');
  });

  // What both engines show. That the starts are counted (the engine runs while one is unmatched)
  // is the real client's alone to show, in AuthClient.lifecycle.test.ts: the mock runs nothing.
  test('stop(), one too many included, leaves the state as it is; start() again goes on', async () => {
    const engine = await subject().signedIn();
    const before = engine.getSnapshot();
    void engine.start();
    engine.stop();
    engine.stop();
    // A stop() with nothing left to match does nothing.
    engine.stop();
    expect(engine.getSnapshot()).toBe(before);
    await engine.start();
    expect(engine.getSnapshot().status).toBe('authenticated');
    engine.stop();
  });

  test('getSnapshot() is one frozen object until a change; subscribers hear each change', async () => {
    const engine = await subject().refused();
    const failed = engine.getSnapshot();
    expectWellFormed(failed);
    expect(engine.getSnapshot()).toBe(failed);
    const heard = vi.fn();
    const gone = vi.fn();
    engine.subscribe(heard);
    const unsubscribe = engine.subscribe(gone);
    unsubscribe();
    engine.dismissError();
    const dismissed = engine.getSnapshot();
    expect(dismissed).not.toBe(failed);
    expect(dismissed).toMatchObject({ status: 'unauthenticated', error: null });
    expect(heard).toHaveBeenCalledTimes(1);
    expect(gone).not.toHaveBeenCalled();
    // Nothing left to dismiss: no change, the same object, nobody called.
    engine.dismissError();
    expect(engine.getSnapshot()).toBe(dismissed);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  test('user is set exactly when authenticated, signOutReason only when unauthenticated', async () => {
    const engine = await subject().signedIn();
    const seen = recordSnapshots(engine);
    await engine.signOut({ redirect: false, reason: 'idle' });
    expect(engine.getSnapshot()).toMatchObject({
      status: 'unauthenticated',
      signOutReason: 'idle',
    });
    void engine.signIn().catch(() => undefined);
    await vi.waitFor(() => expect(engine.getSnapshot().status).toBe('signing-in'));
    expect(seen.map((snapshot) => snapshot.status)).toContain('authenticated');
    for (const snapshot of seen) expectWellFormed(snapshot);
  });

  test('getServerSnapshot(), when given, is one well-formed snapshot', async () => {
    const engine = await subject().signedIn();
    const server = engine.getServerSnapshot?.() ?? engine.getSnapshot();
    expectWellFormed(server);
    expect(engine.getServerSnapshot?.() ?? engine.getSnapshot()).toBe(server);
  });

  test('dismissError() forgets the error and keeps the status and the sign-out reason', async () => {
    const engine = await subject().expired();
    expect(engine.getSnapshot()).toMatchObject({
      status: 'unauthenticated',
      error: { code: 'session_expired' },
      signOutReason: 'expired',
    });
    engine.dismissError();
    expect(engine.getSnapshot()).toEqual({
      status: 'unauthenticated',
      user: null,
      error: null,
      signOutReason: 'expired',
    });
  });

  test('a refused sign-in ends in the snapshot: status error, an AuthError with its code', async () => {
    const engine = await subject().refused();
    const { status, user, error } = engine.getSnapshot();
    expect({ status, user }).toEqual({ status: 'error', user: null });
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.code).toBe('provider_error');
  });

  test.each(['loading', 'signedOut', 'signedIn', 'refused'] as const)(
    'the actions never throw synchronously (%s)',
    async (state) => {
      const made = subject();
      const engine = state === 'loading' ? made.loading() : await made[state]();
      const actions = [
        () => engine.getAccessToken(),
        () => engine.getAuthHeaders(`${api}/orders`, { method: 'POST' }),
        () => engine.renew(),
        () => engine.signOut({ redirect: false }),
        () => engine.signIn({ returnTo: '/orders' }),
      ];
      for (const action of actions) {
        let result: Promise<unknown> | undefined;
        expect(() => (result = action())).not.toThrow();
        expect(result).toBeInstanceOf(Promise);
        result?.catch(() => undefined);
      }
      expect(() => engine.dismissError()).not.toThrow();
      made.restore(engine);
    },
  );

  test('signed out: no access token, no headers, renew() gives null', async () => {
    const engine = await subject().signedOut();
    expect(await engine.getAccessToken()).toBeNull();
    expect(await engine.getAuthHeaders(`${api}/orders`)).toBeNull();
    expect(await engine.renew()).toBeNull();
    expectWellFormed(engine.getSnapshot());
  });

  test('signed in: the access token, and headers that carry it', async () => {
    const engine = await subject().signedIn();
    const token = await engine.getAccessToken();
    expect(token).toEqual(expect.any(String));
    expect(await engine.getAuthHeaders(`${api}/orders`)).toEqual({
      Authorization: `Bearer ${token}`,
    });
    const renewed = await engine.renew();
    expect(renewed?.access_token).toEqual(expect.any(String));
    expect(engine.getSnapshot().status).toBe('authenticated');
  });

  test('asked while loading, getAccessToken() and getAuthHeaders() wait for the session', async () => {
    const made = subject();
    const engine = made.loading();
    const token = engine.getAccessToken();
    const headers = engine.getAuthHeaders(`${api}/orders`);
    const started = engine.start();
    made.restore(engine);
    await started;
    expect(await token).toBeNull();
    expect(await headers).toBeNull();
  });

  test('fetch sends the access token to the API when signed in, none when signed out or elsewhere', async () => {
    const made = subject();
    // Signed out first: the real client's next tab would take the session signed in before it.
    const signedOut = recordingFetch();
    await (await made.signedOut({ fetch: signedOut.send })).fetch(`${api}/orders`);
    expect(signedOut.authorizations).toEqual([null]);
    const signedIn = recordingFetch();
    const engine = await made.signedIn({ fetch: signedIn.send });
    await engine.fetch(`${api}/orders`);
    // Never to another origin than the API's.
    await engine.fetch('https://elsewhere.example.test/orders');
    expect(signedIn.authorizations).toEqual([`Bearer ${await engine.getAccessToken()}`, null]);
  });

  test('readRoles() reads with the configured reader, and gives [] when the roles cannot be read', async () => {
    const made = subject();
    const user = createTestUser({ roles: ['admin'] });
    const engine = await made.signedOut();
    expect(engine.readRoles(user)).toEqual(['admin']);
    expect(engine.readRoles(createTestUser({ claims: { roles: 42 } }))).toEqual([]);
    const throwing = await made.signedOut({
      roles: () => {
        throw new TypeError('no such claim');
      },
    });
    expect(throwing.readRoles(user)).toEqual([]);
    // A reader written in JavaScript, or with a cast over a missing claim
    // (`(user) => user.profile.groups as string[]`), may give something else than a list.
    for (const given of [undefined, null, 'admin', { admin: true }]) {
      const odd = await made.signedOut({ roles: () => given as unknown as string[] });
      expect(odd.readRoles(user), String(given)).toEqual([]);
    }
  });

  test('without idle sign-out: active with no deadline, one object, and stay() changes nothing', async () => {
    const engine = await subject().signedIn();
    const idle = engine.idle.getSnapshot();
    expect(idle).toEqual({ status: 'active', deadline: null });
    const heard = vi.fn();
    const unsubscribe = engine.idle.subscribe(heard);
    engine.idle.stay();
    expect(engine.idle.getSnapshot()).toBe(idle);
    expect(heard).not.toHaveBeenCalled();
    unsubscribe();
  });
});
