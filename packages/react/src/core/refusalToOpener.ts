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

/** The `AuthError` a popup or iframe handed over, or null when `providerError` is not one. */
export function refusalFromWindow(
  providerError: string,
  description: string | undefined,
  cause: unknown,
): AuthError | null {
  if (!providerError.startsWith(prefix)) return null;
  const [code = '', check = ''] = providerError.slice(prefix.length).split('/');
  const known = handedCodes.find((handed) => handed === code);
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
