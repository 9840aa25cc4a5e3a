import { authError } from './errors';
import type { AuthError } from './errors';
import type { AuthErrorCode } from './errors';

/**
 * A popup or silent iframe checks the sign-in response before it hands it to the window that
 * opened it. When a check fails there, it hands over an error response instead, through the same
 * oidc-client-ts channel: `error` is this prefix, the code and the failed check.
 */
const prefix = 'oidc-kit:';

/**
 * The codes a popup or iframe can meet before it hands a response over (listed here rather than
 * read from the error catalogue, whose text would then ship in every app).
 */
const handedCodes: readonly AuthErrorCode[] = [
  'callback_state_mismatch',
  'id_token_invalid',
  'config_invalid',
  'network',
  'timeout',
  'token_exchange_failed',
];

/** The error response a popup or iframe hands over for `error`, on the callback `url`. */
export function refusalUrl(url: string, error: AuthError): string {
  const failed = new URL(url);
  const state = failed.searchParams.get('state') ?? '';
  failed.search = '';
  failed.hash = '';
  failed.searchParams.set('state', state);
  failed.searchParams.set('error', `${prefix}${error.code}/${error.check ?? ''}`);
  failed.searchParams.set('error_description', error.message);
  return failed.href;
}

/**
 * The callback `url` with a provider's own `error` that starts with the hand-over prefix handed
 * on as the provider's: no window takes a provider's word for one of oidc-kit's own checks.
 */
export function providerErrorKept(url: string): string {
  const parsed = new URL(url);
  const error = parsed.searchParams.get('error');
  if (error === null || !error.startsWith(prefix)) return url;
  parsed.searchParams.set('error', `${prefix}${providerHandOver}/${error}`);
  return parsed.href;
}

/** The code under which `providerErrorKept` hands a provider's error on. */
const providerHandOver = 'provider_error';

/** The `AuthError` a popup or iframe handed over, or null when `providerError` is not one. */
export function refusalFromWindow(
  providerError: string,
  description: string | undefined,
  cause: unknown,
): AuthError | null {
  if (!providerError.startsWith(prefix)) return null;
  const handed = providerError.slice(prefix.length);
  const slash = handed.indexOf('/');
  const code = slash === -1 ? handed : handed.slice(0, slash);
  const check = slash === -1 ? '' : handed.slice(slash + 1);
  if (code === providerHandOver) {
    return authError(
      'provider_error',
      process.env.NODE_ENV !== 'production' && [
        `The identity provider answered ${check}.`,
        'Nothing was stored; the user is still signed out.',
      ],
      { cause, providerError: check, providerErrorDescription: description },
    );
  }
  const known = handedCodes.find((item) => item === code);
  if (known === undefined) return null;
  // Production builds give the short message again rather than trust the text from the URL.
  return authError(
    known,
    process.env.NODE_ENV !== 'production' && [
      description ?? code,
      'The sign-in window refused the response; nothing was stored.',
    ],
    { cause, check: check === '' ? undefined : check },
  );
}
