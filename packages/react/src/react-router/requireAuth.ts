import { data } from 'react-router';
import type { User } from 'oidc-client-ts';
import { checkAccess, describeSignInError } from '@oidc-kit/react';
import type {
  AccessRequirements,
  AuthContextValue,
  AuthError,
  AuthErrorCode,
  AuthSnapshot,
} from '@oidc-kit/react';
// Bundled into this entry; the attempt itself is shared with the main entry's copy (see the file).
import { readGuardAttempt, writeGuardAttempt } from '../core/guardAttempts';
import { isUnderWay } from '../core/authState';
import { unlessAborted } from '../core/unlessAborted';
import { returnToFromRequest } from './returnToFromRequest';

/**
 * The data of the response `requireAuth` throws, for the route's `ErrorBoundary`: read it with
 * `isRouteErrorResponse(error)` and `error.data`. Status 403 with `forbidden`; 401 with
 * `sign_in_needed`, or with the code of the failed sign-in (an `AuthErrorCode`).
 *
 * @example
 * const error = useRouteError();
 * if (isRouteErrorResponse(error)) return <p>{(error.data as AuthGuardFailure).message}</p>;
 */
export interface AuthGuardFailure {
  code: 'forbidden' | 'sign_in_needed' | AuthErrorCode;
  /** A sentence for the user. */
  message: string;
}

/** The 401 response for a failed sign-in, with its code. */
function signInFailed(error: AuthError) {
  return data<AuthGuardFailure>(
    { code: error.code, message: describeSignInError(error) },
    { status: 401 },
  );
}

/** The client a loader guard needs: the one given to `<AuthProvider client={...}>`. */
export type LoaderAuthClient = AuthContextValue;

/**
 * Resolves with the first snapshot that is not mid-way (a redirect in progress never resolves).
 * Loaders may run before `AuthProvider` mounts (a router created at module level): the client is
 * held started while waiting, and let go once settled, or when `signal` aborts (the navigation
 * was abandoned), which rejects with the signal's reason.
 */
export async function waitForAuth(
  client: LoaderAuthClient,
  signal?: AbortSignal,
): Promise<AuthSnapshot> {
  try {
    // Once the session is known: a client started anew after a stop() restores it first. An
    // abandoned navigation does not wait for that (a slow code exchange, say).
    const started = client.start();
    await (signal === undefined ? started : unlessAborted(signal, started));
    return await new Promise<AuthSnapshot>((resolve, reject) => {
      const settle = () => {
        if (signal?.aborted === true) reject(signal.reason);
        else if (!isUnderWay(client.getSnapshot().status)) resolve(client.getSnapshot());
        else return;
        unsubscribe();
        signal?.removeEventListener('abort', settle);
      };
      const unsubscribe = client.subscribe(settle);
      signal?.addEventListener('abort', settle);
      settle();
    });
  } finally {
    client.stop();
  }
}

/**
 * A React Router loader that lets a signed-in user with access through (resolving with the
 * `User`), starts sign-in for a signed-out one with the requested URL as `returnTo` (once per
 * navigation: a second arrival without a session, or a session that ended in this page, throws a
 * 401 `sign_in_needed` instead of redirecting), and
 * throws a 403 response for a user without access.
 *
 * @example
 * const auth = new AuthClient(config);
 * const router = createBrowserRouter([{ path: '/admin', loader: requireAuth(auth, { roles: ['admin'] }), Component: Admin }]);
 */
export function requireAuth(
  client: LoaderAuthClient,
  requirements: AccessRequirements = {},
): (args: { request: Request }) => Promise<User> {
  // `tried`: sign-in was asked for in this navigation, and the page did not leave.
  const guard = async (request: Request, tried: boolean): Promise<User> => {
    const snapshot = await waitForAuth(client, request.signal);
    const returnTo = returnToFromRequest(request);
    if (snapshot.user !== null) {
      writeGuardAttempt(null);
      if (!checkAccess(snapshot.user, requirements, (user) => client.readRoles(user))) {
        throw data<AuthGuardFailure>(
          // Any requirement may have failed (roles, scopes, `when`): none is named.
          { code: 'forbidden', message: 'Your account does not have access to this page.' },
          { status: 403 },
        );
      }
      return snapshot.user;
    }
    // A failed sign-in is shown, not retried; an ended session (expired, signed out elsewhere)
    // simply needs a new sign-in.
    if (snapshot.status === 'error' && snapshot.error !== null) throw signInFailed(snapshot.error);
    // Tried once for this path, or the session ended in this page (signed out, elsewhere, idle,
    // expired): a redirect now could sign the user straight back in with the provider's session.
    if (tried || snapshot.signOutReason !== null || readGuardAttempt(returnTo) !== null) {
      throw data<AuthGuardFailure>(
        { code: 'sign_in_needed', message: 'Sign in to open this page.' },
        { status: 401 },
      );
    }
    writeGuardAttempt({ returnTo, silent: false });
    // Held started until sign-in settles (no AuthProvider may hold it yet): the client then
    // watches for a page that does not leave.
    try {
      await Promise.all([client.start(), client.signIn({ returnTo })]);
    } finally {
      client.stop();
    }
    // The page is leaving for the provider, and waiting on it never settles. When it does not leave
    // (the provider unreachable, the user chose to stay), the navigation settles on the state left:
    // the failure, or a 401.
    return guard(request, true);
  };
  return ({ request }) => guard(request, false);
}
