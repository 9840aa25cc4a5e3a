import type { User } from 'oidc-client-ts';
import { AuthError, createAuthFetch, defaultRoleReader } from '@oidc-kit/react';
import type {
  AuthContextValue,
  AuthHeadersOptions,
  AuthSnapshot,
  AuthStatus,
  IdleSnapshot,
  RoleReader,
  SignInOptions,
  SignOutReason,
  SignOutOptions,
} from '@oidc-kit/react';
import { createTestUser } from './createTestUser';

/** A function that records its calls in `calls`, one array of arguments per call. */
export type Spy<Args extends unknown[], Result> = ((...args: Args) => Result) & {
  readonly calls: Args[];
};

function spy<Args extends unknown[], Result>(
  implementation: (...args: Args) => Result,
): Spy<Args, Result> {
  const calls: Args[] = [];
  return Object.assign(
    (...args: Args) => {
      calls.push(args);
      return implementation(...args);
    },
    { calls },
  );
}

/** How a mock client starts. */
export interface MockAuthOptions {
  /** Default `unauthenticated`, or `authenticated` when a `user` is given. */
  state?: AuthStatus;
  /** The signed-in user; default `createTestUser()` when `state` is `authenticated`. */
  user?: User | null;
  /** The error to report; in the `error` state, a cancelled sign-in unless another is given. */
  error?: AuthError | null;
  /** Why the session ended, while `unauthenticated` (`signOut()` sets `user`). */
  signOutReason?: SignOutReason | null;
  /**
   * Reads roles from a user, as the real config's `roles` option does. Default: the real client's
   * `defaultRoleReader` (the `roles` claim, a string split on spaces or commas, from the ID token,
   * else from the access token). A reader that throws, or gives no list, gives no roles, as in the
   * real client.
   */
  readRoles?: RoleReader;
  /** The fetch the mock's authenticated fetch calls. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Origins the mock's fetch sends the token to. Default: the page's origin. */
  apiOrigins?: readonly string[];
  /**
   * Shows idle sign-out's warning, this many milliseconds before the end (for `useIdle`); only to
   * a signed-in user.
   */
  idleWarning?: number;
}

/** A stand-in for the auth client, for tests and stories: spied actions and a settable state. */
export interface MockAuthClient extends AuthContextValue {
  /** Resolves once the mock is not `loading`, as the real client's once the session is known. */
  readonly start: Spy<[], Promise<void>>;
  readonly stop: Spy<[], void>;
  readonly signIn: Spy<[options?: SignInOptions], Promise<void>>;
  readonly signOut: Spy<[options?: SignOutOptions], Promise<void>>;
  readonly renew: Spy<[], Promise<User | null>>;
  /**
   * The user's access token, null when signed out. Asked while `loading`, it waits until `set()`
   * moves the mock on, as the real client waits for the session it restores. It renews nothing: an
   * expiring or expired token is given as it is (the real client renews a token that expires within
   * 5 s first, and gives null if that fails). `getAuthHeaders` and `fetch` take the token so too.
   */
  readonly getAccessToken: Spy<[], Promise<string | null>>;
  /**
   * `Authorization: Bearer <token>`; for a user whose `token_type` is `DPoP`,
   * `Authorization: DPoP <token>` and `DPoP: mock-dpop-proof` (no crypto in the mock). The mock's
   * `fetch` sends the same.
   */
  readonly getAuthHeaders: Spy<
    [url: string, options?: AuthHeadersOptions],
    Promise<Record<string, string> | null>
  >;
  readonly dismissError: Spy<[], void>;
  /** `idle.stay`: ends the warning, as in the real client. */
  readonly stayActive: Spy<[], void>;
  /**
   * Shows idle sign-out's warning, `remaining` ms before the end, or (null) ends it. Only while
   * `authenticated`, as in the real client; the warning also ends with the session.
   */
  setIdleWarning(remaining: number | null): void;
  /**
   * Moves the mock to another state, as the real client would; what is left out stays as it is.
   * Subscribers re-render when something changed.
   */
  set(next: {
    state?: AuthStatus;
    user?: User | null;
    error?: AuthError | null;
    signOutReason?: SignOutReason | null;
  }): void;
}

/** The mock's headers for `token`: DPoP with a stand-in proof for a DPoP user, else Bearer. */
function headersFor(user: User, token: string): Record<string, string> {
  return /^dpop$/i.test(user.token_type)
    ? { Authorization: `DPoP ${token}`, DPoP: 'mock-dpop-proof' }
    : { Authorization: `Bearer ${token}` };
}

function snapshotOf(
  state: AuthStatus,
  user: User | null,
  error: AuthError | null,
  signOutReason: SignOutReason | null = null,
): AuthSnapshot {
  return Object.freeze({
    status: state,
    user: state === 'authenticated' ? user : null,
    // As in the real client: the error state always carries its error.
    error: error ?? (state === 'error' ? defaultError() : null),
    signOutReason: state === 'unauthenticated' ? signOutReason : null,
  });
}

const inactiveIdle: IdleSnapshot = { status: 'active', deadline: null };

function defaultError(): AuthError {
  return new AuthError('provider_error', 'The identity provider answered access_denied.', {
    providerError: 'access_denied',
    providerErrorDescription: 'The user cancelled the sign-in.',
    handled: 'Nothing was stored; the user is still signed out.',
  });
}

/**
 * Creates a mock auth client. Its actions are spies that also move the state as the real client
 * would (`signIn` → `signing-in`, `signOut` → `unauthenticated`), with no test framework needed.
 *
 * @example
 * const auth = createMockAuthClient({ state: 'unauthenticated' });
 * render(<MockAuthProvider client={auth}><SignInButton returnTo="/orders" /></MockAuthProvider>);
 * await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
 * expect(auth.signIn.calls).toEqual([[{ returnTo: '/orders' }]]);
 */
export function createMockAuthClient(options: MockAuthOptions = {}): MockAuthClient {
  const initialState = options.state ?? (options.user ? 'authenticated' : 'unauthenticated');
  let snapshot = snapshotOf(
    initialState,
    options.user ?? (initialState === 'authenticated' ? createTestUser() : null),
    options.error ?? null,
    options.signOutReason,
  );
  const listeners = new Set<() => void>();
  let idleSnapshot: IdleSnapshot = inactiveIdle;
  const idleListeners = new Set<() => void>();

  const set: MockAuthClient['set'] = (next) => {
    const status = next.state ?? snapshot.status;
    const user =
      next.user !== undefined
        ? next.user
        : (snapshot.user ?? (status === 'authenticated' ? createTestUser() : null));
    if (status === 'authenticated' && user === null) {
      throw new Error(
        'createMockAuthClient: `authenticated` needs a user, as in the real client. Leave `user` out (a test user is made), or pass one from createTestUser().',
      );
    }
    const error = next.error !== undefined ? next.error : snapshot.error;
    const signOutReason =
      next.signOutReason !== undefined ? next.signOutReason : snapshot.signOutReason;
    const following = snapshotOf(status, user, error, signOutReason);
    // No field changed: the same snapshot, and nobody called.
    if (
      (Object.keys(following) as (keyof AuthSnapshot)[]).every(
        (key) => following[key] === snapshot[key],
      )
    ) {
      return;
    }
    snapshot = following;
    for (const listener of [...listeners]) listener();
    // As the real idle clock: with nobody signed in, nobody is idle.
    if (status !== 'authenticated') setIdleWarning(null);
  };

  // The user once the state leaves `loading`, as the real client's token waits for the session.
  const userOnceLoaded = () =>
    new Promise<User | null>((resolve) => {
      const check = () => {
        if (snapshot.status === 'loading') return;
        listeners.delete(check);
        resolve(snapshot.user);
      };
      listeners.add(check);
      check();
    });
  const getAccessToken = spy(async () => (await userOnceLoaded())?.access_token ?? null);
  const setIdleWarning = (remaining: number | null) => {
    const next: IdleSnapshot =
      remaining === null || snapshot.status !== 'authenticated'
        ? inactiveIdle
        : { status: 'warning', deadline: Date.now() + remaining };
    // As the real client: no change, nobody called (`stay()` with no warning is ignored).
    if (next === idleSnapshot) return;
    idleSnapshot = next;
    for (const listener of [...idleListeners]) listener();
  };
  if (options.idleWarning !== undefined) setIdleWarning(options.idleWarning);
  const stayActive = spy(() => setIdleWarning(null));
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return {
    // Resolves once the session is known, as the real client's does: never on `loading`.
    start: spy(async () => void (await userOnceLoaded())),
    stop: spy(() => undefined),
    getSnapshot: () => snapshot,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn: spy(async () => set({ state: 'signing-in', error: null })),
    signOut: spy(async (options?: SignOutOptions) =>
      set({
        state: 'unauthenticated',
        user: null,
        error: null,
        signOutReason: options?.reason ?? 'user',
      }),
    ),
    renew: spy(async () => snapshot.user),
    getAccessToken,
    getAuthHeaders: spy(async (_url: string, _options?: AuthHeadersOptions) => {
      const user = await userOnceLoaded();
      return user === null ? null : headersFor(user, user.access_token);
    }),
    dismissError: spy(() =>
      set({
        state: snapshot.status === 'error' ? 'unauthenticated' : snapshot.status,
        error: null,
      }),
    ),
    // As the real client reads them: a reader that throws, or gives no list (which has no
    // flat()), gives no roles.
    readRoles: (user) => {
      try {
        return (options.readRoles ?? defaultRoleReader)(user).flat();
      } catch {
        return [];
      }
    },
    fetch: createAuthFetch(
      {
        getAccessToken: () => getAccessToken(),
        renewAfterUnauthorized: async () => null,
        sendWithToken: (request, token, send) => {
          const headers = snapshot.user === null ? {} : headersFor(snapshot.user, token);
          for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
          return send(request);
        },
      },
      // Origins, as the real config gives them ('https://api.example.com/' is that origin).
      options.apiOrigins?.map((entry) => new URL(entry).origin) ??
        (origin === undefined ? [] : [origin]),
      options.fetch,
    ),
    idle: {
      getSnapshot: () => idleSnapshot,
      subscribe: (listener) => {
        idleListeners.add(listener);
        return () => idleListeners.delete(listener);
      },
      stay: stayActive,
    },
    stayActive,
    setIdleWarning,
    set,
  };
}
