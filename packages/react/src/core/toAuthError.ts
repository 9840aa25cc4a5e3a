import { authError, isAuthError } from './errors';
import type { AuthError, AuthErrorCode } from './errors';
import { refusalFromWindow } from './refusalToOpener';
import { idTokenInvalid } from './idToken';
import { sessionOverErrors } from './sessionOverErrors';

/** Which operation failed: it decides what an ambiguous low-level error means. */
export type AuthOperation = 'sign-in' | 'callback' | 'renew' | 'sign-out';

/** The code of a failure nothing more is known of, by operation. */
const fallbackCodes: Record<AuthOperation, AuthErrorCode> = {
  'sign-in': 'network',
  callback: 'token_exchange_failed',
  renew: 'renew_failed',
  'sign-out': 'network',
};

/** Development only: what failed, and what was done about it, by operation. */
function fallbackTexts(operation: AuthOperation): readonly [message: string, handled: string] {
  switch (operation) {
    case 'sign-in':
      return [
        'Sign-in could not start: the identity provider could not be reached.',
        'Nothing was stored; the user is still signed out.',
      ];
    case 'callback':
      return [
        'The identity provider did not exchange the sign-in code for tokens.',
        'No user was stored and the callback parameters were removed from the address.',
      ];
    case 'renew':
      return [
        'The tokens could not be renewed.',
        'The current session is kept while its tokens are valid.',
      ];
    default:
      return [
        'Sign-out at the identity provider could not start.',
        'The local session was already cleared.',
      ];
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function field(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : undefined;
}

/**
 * Turns anything oidc-client-ts, fetch or the provider throws into an `AuthError` with the right
 * code for the operation that failed; an `AuthError` passes through unchanged.
 */
export function toAuthError(cause: unknown, operation: AuthOperation): AuthError {
  if (isAuthError(cause)) return cause;
  const name = field(cause, 'name');
  const message = field(cause, 'message') ?? String(cause);
  if (name === 'ErrorDPoPNonce') {
    // oidc-client-ts reports any refusal that carries a DPoP-Nonce header this way, the answer's
    // body as the message: an invalid_grant among them still ends the session, and a
    // use_dpop_nonce here was refused again after its one retry (the nonce changed meanwhile).
    const answer = parseObject(message);
    if (typeof answer?.error === 'string') {
      // `form: null`: an endpoint's answer, never a window's hand-over (see below).
      return toAuthError({ ...answer, name: 'ErrorResponse', cause, form: null }, operation);
    }
  }

  // The browser's storage is full (or refused by a setting): a renewal retries, as for any passing
  // failure; elsewhere nothing could be kept, and reaching the provider was not the problem.
  if (name === 'QuotaExceededError' && operation !== 'renew') {
    return authError(
      'storage_failed',
      process.env.NODE_ENV !== 'production' && [
        `The browser could not store the sign-in: this site's storage is full or blocked (${message}). Free some space or allow the site's data, then sign in again.`,
        fallbackTexts(operation)[1],
      ],
      { cause },
    );
  }
  if (name === 'ErrorTimeout') {
    return authError(
      'timeout',
      process.env.NODE_ENV !== 'production' && [
        'The identity provider did not answer in time.',
        fallbackTexts(operation)[1],
      ],
      { cause },
    );
  }
  if (name === 'ErrorResponse') {
    // Hand-overs reach a sign-in or a renewal (its silent frame) only, as an authorization
    // response: a refusal with the request's form is the token endpoint's.
    const handedOver =
      (cause as { form?: unknown }).form === undefined &&
      (operation === 'sign-in' || operation === 'renew');
    // oidc-client-ts keeps the request's form on its refusals: the refresh token, or the code
    // and its verifier, stay out of an error that apps show and log.
    delete (cause as { form?: unknown }).form;
    const providerError = field(cause, 'error') ?? 'unknown_error';
    const details = {
      cause,
      providerError,
      providerErrorDescription: field(cause, 'error_description'),
    };
    const fromWindow = handedOver
      ? refusalFromWindow(providerError, details.providerErrorDescription, cause)
      : null;
    if (fromWindow !== null) return fromWindow;
    if (operation === 'renew' && sessionOverErrors.has(providerError)) {
      return authError(
        'session_expired',
        process.env.NODE_ENV !== 'production' && [
          `The session ended at the identity provider (${providerError}).`,
          'The local session was cleared in every tab.',
        ],
        details,
      );
    }
    if (operation === 'renew') {
      return authError(
        'renew_failed',
        process.env.NODE_ENV !== 'production' && [
          `The identity provider refused to renew the tokens (${providerError}).`,
          fallbackTexts('renew')[1],
        ],
        details,
      );
    }
    if (operation === 'callback') {
      return authError(
        'token_exchange_failed',
        process.env.NODE_ENV !== 'production' && [
          `The identity provider refused the sign-in code (${providerError}).`,
          fallbackTexts('callback')[1],
        ],
        details,
      );
    }
    return authError(
      'provider_error',
      process.env.NODE_ENV !== 'production' && [
        `The identity provider answered ${providerError}.`,
        'Nothing was stored; the user is still signed out.',
      ],
      details,
    );
  }
  if (/Expected code in response/.test(message)) {
    // An authorization response with neither a code nor an error (an empty `error=`).
    return authError(
      'token_exchange_failed',
      process.env.NODE_ENV !== 'production' && [
        'The sign-in response has neither a code nor an error.',
        'Nothing was stored; the user is still signed out.',
      ],
      { cause },
    );
  }
  if (name === 'InvalidTokenError') {
    // oidc-client-ts decodes the ID token (with jwt-decode) before oidc-kit's checks can.
    return idTokenInvalid(
      'format',
      process.env.NODE_ENV !== 'production' &&
        `it is missing or not a compact JWT with a JSON payload (${message}).`,
      cause,
    );
  }
  if (/nonce in id_token does not match/.test(message)) {
    return idTokenInvalid(
      'nonce',
      process.env.NODE_ENV !== 'production' && 'its nonce is not the one this sign-in sent.',
      cause,
    );
  }
  if (/sub in id_token does not match|missing a subject|subject from UserInfo/i.test(message)) {
    return idTokenInvalid(
      'sub',
      process.env.NODE_ENV !== 'production' && 'its subject is missing or not the signed-in user.',
      cause,
    );
  }
  // oidc-client-ts compares a refreshed ID token with the session's (OpenID Connect Core 12.2).
  const changed = /^(auth_time|azp) (not )?in id_token/.exec(message);
  if (changed) {
    return idTokenInvalid(
      changed[1] as 'auth_time' | 'azp',
      process.env.NODE_ENV !== 'production' &&
        `its \`${changed[1]}\` is not that of the session's first ID token (OpenID Connect Core 12.2).`,
      cause,
    );
  }
  if (/No matching state|State does not match|No state in response/.test(message)) {
    return authError(
      'callback_state_mismatch',
      process.env.NODE_ENV !== 'production' &&
        (operation === 'sign-out'
          ? [
              'This return from sign-out does not belong to a sign-out started in this browser (stale, replayed or forged).',
              'The local session was cleared already; the parameters were removed from the address.',
            ]
          : [
              /No state in response/.test(message)
                ? 'This sign-in response has no `state`, so it cannot be matched to the sign-in this tab started: the provider dropped it, or the address was changed.'
                : 'This sign-in response does not belong to a sign-in started in this browser (stale, replayed or forged).',
              'Nothing was stored and the callback parameters were removed from the address.',
            ]),
      { cause },
    );
  }
  if (/Popup closed/.test(message)) {
    return authError(
      'popup_closed',
      process.env.NODE_ENV !== 'production' && [
        'The sign-in window was closed before sign-in finished.',
        'Nothing was stored; the user is still signed out.',
      ],
      { cause },
    );
  }
  if (/disposed window|Popup blocked/.test(message)) {
    return authError(
      'popup_blocked',
      process.env.NODE_ENV !== 'production' && [
        'The browser blocked the sign-in window.',
        'Nothing was stored; start sign-in from a click, or use a redirect.',
      ],
      { cause },
    );
  }
  // fetch fails with a TypeError; one that reads a property of null (an answer of JSON `null`, in
  // any engine's wording) is an unusable answer, not an unreachable provider.
  if (
    (name === 'TypeError' && !/null|undefined/.test(message)) ||
    /Network Error|Failed to fetch|NetworkError/i.test(message)
  ) {
    return authError(
      'network',
      process.env.NODE_ENV !== 'production' && [
        'The identity provider could not be reached.',
        fallbackTexts(operation)[1],
      ],
      { cause },
    );
  }
  return authError(
    fallbackCodes[operation],
    process.env.NODE_ENV !== 'production' && [
      `${fallbackTexts(operation)[0]} (${message})`,
      fallbackTexts(operation)[1],
    ],
    { cause },
  );
}
