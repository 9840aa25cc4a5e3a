import type { ChannelLike, LockManagerLike } from './tabSync';

/** Options for {@link AuthClient.signIn}. */
export interface SignInOptions {
  /** Where to land after sign-in: a same-origin path. Default: the current location. */
  returnTo?: string;
  /** Sign in in a popup window instead of redirecting this page. */
  popup?: boolean;
  /** e.g. `login` to force the login screen, `none` for a silent check. */
  prompt?: string;
  login_hint?: string;
  ui_locales?: string;
  /** Further authorize parameters your provider documents, e.g. `{ kc_idp_hint: 'github' }`. */
  extraQueryParams?: Record<string, string | number | boolean>;
}

/** Options for {@link AuthClient.signOut}. */
export interface SignOutOptions {
  /** Revoke the refresh and access tokens at the provider first. Default false. */
  revokeTokens?: boolean;
  /** Also end the session at the provider (RP-initiated logout). Default true. */
  redirect?: boolean;
  /** Why, for the signed-out page (`snapshot.signOutReason`). Default `user`. */
  reason?: 'user' | 'idle';
  /** The language of the provider's logout pages, e.g. `fr`. */
  ui_locales?: string;
  /** Which account to sign out, where the provider supports it. */
  logout_hint?: string;
}

/** Options for {@link AuthClient.getAuthHeaders}. */
export interface AuthHeadersOptions {
  /** The request's method, for the DPoP proof. Default `GET`. */
  method?: string;
  /** The nonce the server sent in its `DPoP-Nonce` header, when it asked for one. */
  nonce?: string;
}

/** What can be swapped out of the browser, for tests and unusual environments. */
export interface AuthClientEnvironment {
  /** Storage for the user's tokens, instead of the one `storage` names. */
  storage?: Storage;
  /** Storage shared by the app's tabs for renewal bookkeeping (never tokens). Default localStorage. */
  sharedStorage?: Storage | null;
  /** The Web Locks API. Default `navigator.locks`; null uses an in-page lock. */
  locks?: LockManagerLike | null;
  /** Opens the tab-sync channel. Default `new BroadcastChannel(name)`; return null for none. */
  createChannel?: (name: string) => ChannelLike | null;
  /** Moves the app to a path after sign-in. Default: `history.replaceState` plus a `popstate`. */
  navigate?: (path: string) => void;
  /** The fetch used by the authenticated fetch. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Milliseconds a new tab waits for another tab's session. Default 150. */
  tabSessionWait?: number;
  /**
   * Where user input is listened for, for idle sign-out. Default `window`, where only the
   * browser's own events count; on a target given here, every event does.
   */
  inputTarget?: EventTarget;
  /** Sends the browser to the provider. Default: `location.assign`. */
  redirect?: (url: string) => void;
  /**
   * Loads a silent (`prompt=none`) authorization URL in a hidden frame and resolves with the URL
   * the frame lands on. Default: an iframe on `silent_redirect_uri`.
   */
  silentFrame?: (url: string) => Promise<string>;
}
