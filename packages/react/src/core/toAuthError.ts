import { AuthError, isAuthError } from './errors';
import type { AuthErrorCode } from './errors';
import { handedOver } from './handOver';
import { idTokenInvalid } from './idToken';

/** Which operation failed: it decides what an ambiguous low-level error means. */
export type AuthOperation = 'sign-in' | 'callback' | 'renew' | 'sign-out';

/** Provider answers that mean the session is over (no renewal can follow). */
export const sessionOverErrors: ReadonlySet<string> = new Set([
  'invalid_grant',
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

const fallbacks: Record<AuthOperation, { code: AuthErrorCode; message: string; handled: string }> =
  {
    'sign-in': {
      code: 'network',
      message: 'Sign-in could not start: the identity provider could not be reached.',
      handled: 'Nothing was stored; the user is still signed out.',
    },
    callback: {
      code: 'token_exchange_failed',
      message: 'The identity provider did not exchange the sign-in code for tokens.',
      handled: 'No user was stored and the callback parameters were removed from the address.',
    },
    renew: {
      code: 'renew_failed',
      message: 'The tokens could not be renewed.',
      handled: 'The current session is kept while its tokens are valid.',
    },
    'sign-out': {
      code: 'network',
      message: 'Sign-out at the identity provider could not start.',
      handled: 'The local session was already cleared.',
    },
  };

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

  if (name === 'ErrorTimeout') {
    return new AuthError('timeout', 'The identity provider did not answer in time.', {
      cause,
      handled: fallbacks[operation].handled,
    });
  }
  if (name === 'ErrorResponse') {
    const providerError = field(cause, 'error') ?? 'unknown_error';
    const providerErrorDescription = field(cause, 'error_description');
    const fromWindow = handedOver(providerError, providerErrorDescription, cause);
    if (fromWindow !== null) return fromWindow;
    if (operation === 'renew') {
      return sessionOverErrors.has(providerError)
        ? new AuthError(
            'session_expired',
            `The session ended at the identity provider (${providerError}).`,
            {
              cause,
              providerError,
              providerErrorDescription,
              handled: 'The local session was cleared in every tab.',
            },
          )
        : new AuthError(
            'renew_failed',
            `The identity provider refused to renew the tokens (${providerError}).`,
            {
              cause,
              providerError,
              providerErrorDescription,
              handled: fallbacks.renew.handled,
            },
          );
    }
    if (operation === 'callback') {
      return new AuthError(
        'token_exchange_failed',
        `The identity provider refused the sign-in code (${providerError}).`,
        { cause, providerError, providerErrorDescription, handled: fallbacks.callback.handled },
      );
    }
    return new AuthError('provider_error', `The identity provider answered ${providerError}.`, {
      cause,
      providerError,
      providerErrorDescription,
      handled: 'Nothing was stored; the user is still signed out.',
    });
  }
  if (/nonce in id_token does not match/.test(message)) {
    return idTokenInvalid('nonce', 'its nonce is not the one this sign-in sent.', cause);
  }
  if (/sub in id_token does not match|missing a subject|subject from UserInfo/i.test(message)) {
    return idTokenInvalid('sub', 'its subject is missing or not the signed-in user.', cause);
  }
  if (/No matching state|State does not match|No state in response/.test(message)) {
    return new AuthError(
      'callback_state_mismatch',
      'This sign-in response does not belong to a sign-in started in this browser (stale, replayed or forged).',
      {
        cause,
        handled: 'Nothing was stored and the callback parameters were removed from the address.',
      },
    );
  }
  if (/Popup closed/.test(message)) {
    return new AuthError('popup_closed', 'The sign-in window was closed before sign-in finished.', {
      cause,
      handled: 'Nothing was stored; the user is still signed out.',
    });
  }
  if (/disposed window|Popup blocked/.test(message)) {
    return new AuthError('popup_blocked', 'The browser blocked the sign-in window.', {
      cause,
      handled: 'Nothing was stored; start sign-in from a click, or use a redirect.',
    });
  }
  if (name === 'TypeError' || /Network Error|Failed to fetch|NetworkError/i.test(message)) {
    return new AuthError('network', 'The identity provider could not be reached.', {
      cause,
      handled: fallbacks[operation].handled,
    });
  }
  const fallback = fallbacks[operation];
  return new AuthError(fallback.code, `${fallback.message} (${message})`, {
    cause,
    handled: fallback.handled,
  });
}
