import type { AuthError } from '../core/errors';

/**
 * The user-facing sentence for a failure: the one place oidc-kit words it, for the guard's error
 * screen, the React Router guard and your own screens. `error.message` is for developers.
 */
export function describeSignInError(error: AuthError): string {
  switch (error.code) {
    case 'provider_error':
      return error.providerError === 'access_denied'
        ? 'Sign-in was cancelled.'
        : 'The sign-in service refused the sign-in.';
    case 'network':
    case 'timeout':
      // In development, where it was looked for: a wrong `authority` fails this way too.
      return process.env.NODE_ENV !== 'production'
        ? error.message
        : 'The sign-in service could not be reached. Check your connection.';
    case 'storage_failed':
      return "This browser's storage is full or blocked. Free some space or allow this site's data.";
    case 'popup_blocked':
      return 'The browser blocked the sign-in window.';
    case 'popup_closed':
      return 'The sign-in window was closed before sign-in finished.';
    case 'session_expired':
      return 'Your session has ended. Sign in again.';
    case 'signed_out_elsewhere':
      return 'You signed out in another tab.';
    case 'config_invalid':
      // No user can fix it, nor get past it by trying again; development shows which setting.
      return process.env.NODE_ENV !== 'production'
        ? error.message
        : 'Sign-in is not available on this site.';
    default:
      // In development the full message helps more than a sentence; production says it plainly.
      return process.env.NODE_ENV !== 'production' ? error.message : 'Sign-in did not complete.';
  }
}
