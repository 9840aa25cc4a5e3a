/**
 * Every failure oidc-kit reports is an {@link AuthError} with one of these codes.
 * The codes are stable: apps may switch on them.
 */
export type AuthErrorCode =
  | 'config_invalid'
  | 'callback_state_mismatch'
  | 'provider_error'
  | 'id_token_invalid'
  | 'token_exchange_failed'
  | 'network'
  | 'timeout'
  | 'storage_failed'
  | 'popup_blocked'
  | 'popup_closed'
  | 'renew_failed'
  | 'session_expired'
  | 'signed_out_elsewhere';

/** What each error code means and what an app should do about it. */
export interface AuthErrorCatalogueEntry {
  /** One line: what went wrong. */
  readonly summary: string;
  /** What the app (or its user) should do next. */
  readonly whatToDo: string;
}

/**
 * The error catalogue: one entry per {@link AuthErrorCode}.
 *
 * @example
 * if (error) console.info(authErrorCatalogue[error.code].whatToDo);
 */
export const authErrorCatalogue: Readonly<Record<AuthErrorCode, AuthErrorCatalogueEntry>> =
  /* @__PURE__ */ Object.freeze({
    config_invalid: {
      summary:
        'The auth configuration is wrong, or a hook or component is outside <AuthProvider>; nothing was sent to the provider.',
      whatToDo:
        'Fix the setting `field` names, or render that hook or component inside <AuthProvider>. This is a developer error, not a user one.',
    },
    callback_state_mismatch: {
      summary:
        'The sign-in response does not match a sign-in this browser started (stale, replayed or forged).',
      whatToDo: 'Offer to sign in again. The callback parameters were removed from the address.',
    },
    provider_error: {
      summary: 'The identity provider answered with an error (e.g. access_denied, login_required).',
      whatToDo:
        'Read providerError: access_denied means the user cancelled; show a "Try again" button.',
    },
    id_token_invalid: {
      summary: 'The ID token failed a check (named in `check`); no user was stored.',
      whatToDo:
        'Check the provider and client configuration (issuer, client id, clock); then retry.',
    },
    token_exchange_failed: {
      summary: 'The provider refused to exchange the authorization code for tokens.',
      whatToDo: 'Offer to sign in again; if it persists, check the client registration.',
    },
    network: {
      summary: 'The provider could not be reached.',
      whatToDo: 'Tell the user they seem to be offline and offer to retry.',
    },
    timeout: {
      summary: 'A request to the provider took longer than the configured timeout.',
      whatToDo: 'Offer to retry; raise `timeout` only if the provider is known to be slow.',
    },
    storage_failed: {
      summary:
        "The browser refused to store the sign-in (this site's storage is full, or blocked by a setting).",
      whatToDo: "Ask the user to free some space or allow this site's data, then to sign in again.",
    },
    popup_blocked: {
      summary: 'The browser blocked the sign-in popup.',
      whatToDo: 'Start the popup from a click handler, or fall back to a redirect sign-in.',
    },
    popup_closed: {
      summary: 'The user closed the sign-in popup before finishing.',
      whatToDo: 'Nothing is needed; the user is still signed out and may try again.',
    },
    renew_failed: {
      summary: 'Renewing the tokens failed for a reason that may pass (network, provider down).',
      whatToDo: 'The session is kept while its tokens are valid; retry later or sign in again.',
    },
    session_expired: {
      summary: 'The session ended at the provider (invalid_grant, login_required).',
      whatToDo: 'Local state was cleared; ask the user to sign in again.',
    },
    signed_out_elsewhere: {
      summary: 'The user signed out in another tab or at the provider.',
      whatToDo: 'Local state was cleared; show the signed-out screen.',
    },
  });

/** Every error code, in catalogue order. */
// Both calls pure: bundlers keep the arguments of a pure call, so the inner one needs its own mark
// for an app that imports neither export to drop the catalogue's text.
export const authErrorCodes = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ Object.keys(authErrorCatalogue),
) as readonly AuthErrorCode[];

/** The optional details an {@link AuthError} carries. */
export interface AuthErrorOptions {
  /** The underlying error (from oidc-client-ts, fetch, the provider), kept as is. */
  cause?: unknown;
  /**
   * What oidc-kit already did about the failure, e.g. "The local session was cleared."
   * Development builds only, like the full message.
   */
  handled?: string;
  /**
   * For `config_invalid`: the configuration field at fault, or the hook or component rendered
   * outside `<AuthProvider>` (e.g. `useAuth`).
   */
  field?: string;
  /** For `id_token_invalid`: the check that failed, e.g. `aud` or `nonce`. */
  check?: string;
  /** For `provider_error`: the provider's `error` parameter, e.g. `access_denied`. */
  providerError?: string;
  /** For `provider_error`: the provider's `error_description`, untrusted text. */
  providerErrorDescription?: string;
}

const brand = Symbol.for('@oidc-kit/react/AuthError');

/** Where every error code is explained: what happened, likely causes, what to do. */
export const errorsDocs = 'https://github.com/oidc-kit/oidc-kit/blob/main/docs/errors.md';

/**
 * The message of an error raised without one: what production builds carry instead of the full
 * development text. The code, the detail that names the fault, and the code's entry in the docs.
 */
function shortMessage(code: AuthErrorCode, options: AuthErrorOptions): string {
  const detail = options.field ?? options.check ?? options.providerError;
  return `oidc-kit ${code}${detail === undefined ? '' : ` (${detail})`}: see ${errorsDocs}#${code}`;
}

/**
 * The one error type oidc-kit raises: a stable `code`, a message that says what to do,
 * the original error as `cause`, and what the library already did in `handled`.
 *
 * Production builds (`process.env.NODE_ENV === 'production'`) carry a short message instead: the
 * code, the field or check at fault, and a link to the code's entry in `docs/errors.md`.
 *
 * @example
 * try { validateConfig(config) } catch (e) { if (isAuthError(e, 'config_invalid')) console.error(e.field) }
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;
  readonly handled: string | undefined;
  readonly field: string | undefined;
  readonly check: string | undefined;
  readonly providerError: string | undefined;
  readonly providerErrorDescription: string | undefined;

  constructor(code: AuthErrorCode, message: string, options: AuthErrorOptions = {}) {
    super(
      message === '' ? shortMessage(code, options) : message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.handled = options.handled;
    this.field = options.field;
    this.check = options.check;
    this.providerError = options.providerError;
    this.providerErrorDescription = options.providerErrorDescription;
    Object.defineProperty(this, brand, { value: true });
  }
}

/**
 * @internal How the engine raises an `AuthError`: its texts (message, then what was handled) are
 * given only in development, as `process.env.NODE_ENV !== 'production' && [message, handled]`,
 * written out at every call so that bundlers drop the text from production builds.
 */
export function authError(
  code: AuthErrorCode,
  texts: false | readonly [message: string, handled?: string],
  options: AuthErrorOptions = {},
): AuthError {
  return texts === false
    ? new AuthError(code, '', options)
    : new AuthError(code, texts[0], { ...options, handled: texts[1] });
}

/**
 * Whether `value` is an {@link AuthError}, optionally of one code. Works across bundle copies,
 * where `instanceof` does not.
 */
export function isAuthError<C extends AuthErrorCode>(
  value: unknown,
  code?: C,
): value is AuthError & { code: C } {
  if (typeof value !== 'object' || value === null || !(brand in value)) return false;
  return code === undefined || (value as { code?: unknown }).code === code;
}
