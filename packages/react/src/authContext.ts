import { createContext } from 'react';
import type { Context } from 'react';
import type { User } from 'oidc-client-ts';
import type { AuthFetch } from './core/authFetch';
import type { AuthHeadersOptions, SignInOptions, SignOutOptions } from './core/clientOptions';
import type { IdleControl } from './core/idleSnapshot';
import type { AuthSnapshot } from './core/authState';

/**
 * What hooks and components need from the auth engine. `AuthProvider` puts a real `AuthClient`
 * here; the test kit's `MockAuthProvider` puts a stand-in with the same shape.
 */
export interface AuthContextValue {
  /**
   * Runs the engine (restores the session, keeps it renewed); resolves once the session is known.
   * Counted: each call is matched by one `stop()`, and the engine runs while any is unmatched.
   */
  start(): Promise<void>;
  /** Matches one `start()`; the last one stops timers and listeners at once. */
  stop(): void;
  getSnapshot(): AuthSnapshot;
  /**
   * Optional: the snapshot the server rendered, which hydration reads (React's
   * `getServerSnapshot`). Default: `getSnapshot()`. `AuthClient`'s is `loading`.
   */
  getServerSnapshot?(): AuthSnapshot;
  subscribe(listener: () => void): () => void;
  signIn(options?: SignInOptions): Promise<void>;
  signOut(options?: SignOutOptions): Promise<void>;
  renew(): Promise<User | null>;
  getAccessToken(): Promise<string | null>;
  /**
   * The headers that send the access token with a request made by other means than `fetch`:
   * `Authorization` (Bearer, or DPoP), and with DPoP a proof for this URL and method; null when
   * signed out.
   */
  getAuthHeaders(url: string, options?: AuthHeadersOptions): Promise<Record<string, string> | null>;
  dismissError(): void;
  /** The user's roles, read with the configured role reader. */
  readRoles(user: User): string[];
  readonly fetch: AuthFetch;
  /** Idle sign-out: its state (changes at the warning and the end only) and "stay signed in". */
  readonly idle: IdleControl;
}

// One context per copy of React, kept on globalThis: an app that loads both of this package's
// builds (a CommonJS dependency beside ESM code) would otherwise have two, and a hook of one build
// would not find the provider of the other. Keyed by React's createContext, as react-redux does;
// weakly, so a copy of React that goes (a test's module reset) is not held. The key's number is
// the AuthContextValue contract's: raise it with an incompatible change, so that two versions of
// this package that disagree keep apart (and a hook of one fails loudly under the other).
const contexts: WeakMap<typeof createContext, Context<AuthContextValue | null>> = ((
  globalThis as { [key: symbol]: typeof contexts }
)[Symbol.for('@oidc-kit/react/AuthContext 1')] ??= new WeakMap());

/** The React context that carries the auth client. Exported for the test kit and routers. */
export const AuthContext =
  contexts.get(createContext) ?? createContext<AuthContextValue | null>(null);
contexts.set(createContext, AuthContext);
// Its name in React DevTools, in development (production builds drop it, as react-redux does).
if (process.env.NODE_ENV !== 'production') AuthContext.displayName = 'OidcKitAuthContext';
