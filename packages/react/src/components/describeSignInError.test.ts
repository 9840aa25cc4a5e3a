import { describe, expect, test, vi } from 'vitest';
import { AuthError } from '../core/errors';
import { describeSignInError } from './describeSignInError';

describe('describeSignInError, the one wording of a failure for users', () => {
  test('a cancelled sign-in reads the same from the guard and from the error', () => {
    const cancelled = new AuthError(
      'provider_error',
      'The identity provider answered access_denied.',
      {
        providerError: 'access_denied',
      },
    );
    expect(describeSignInError(cancelled)).toBe('Sign-in was cancelled.');
  });

  test('in development, an unreachable provider says where it was looked for (a wrong authority)', () => {
    const message =
      'The identity provider could not be reached at http://localhost:4060/.well-known/openid-configuration. Check `authority` if the URL looks wrong.';
    expect(describeSignInError(new AuthError('network', message))).toContain('localhost:4060');
    expect(describeSignInError(new AuthError('timeout', message))).toContain('localhost:4060');
  });

  test('production builds never show a developer message to users', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const codes = ['token_exchange_failed', 'id_token_invalid', 'callback_state_mismatch'] as const;
    for (const code of codes) {
      expect(describeSignInError(new AuthError(code, ''))).toBe('Sign-in did not complete.');
    }
    expect(describeSignInError(new AuthError('timeout', ''))).toMatch(/could not be reached/);
  });

  test("production builds say a wrong config is the site's, not a sign-in to try again", () => {
    vi.stubEnv('NODE_ENV', 'production');
    const error = new AuthError('config_invalid', '', { field: 'authority' });
    expect(describeSignInError(error)).toBe('Sign-in is not available on this site.');
  });

  // docs/errors.md: the sentence is the same in both builds for these; for the other codes,
  // development shows the developer's message, so that a mistake shows on the page.
  test.each(['development', 'production'])(
    'a cancel, a popup, an ended session or a refusal reads the same in %s',
    (mode) => {
      vi.stubEnv('NODE_ENV', mode);
      const said = (error: AuthError) => describeSignInError(error);
      expect(said(new AuthError('provider_error', 'x', { providerError: 'access_denied' }))).toBe(
        'Sign-in was cancelled.',
      );
      expect(said(new AuthError('provider_error', 'x', { providerError: 'invalid_scope' }))).toBe(
        'The sign-in service refused the sign-in.',
      );
      expect(said(new AuthError('popup_blocked', 'x'))).toBe(
        'The browser blocked the sign-in window.',
      );
      expect(said(new AuthError('popup_closed', 'x'))).toBe(
        'The sign-in window was closed before sign-in finished.',
      );
      expect(said(new AuthError('session_expired', 'x'))).toBe(
        'Your session has ended. Sign in again.',
      );
      expect(said(new AuthError('signed_out_elsewhere', 'x'))).toBe(
        'You signed out in another tab.',
      );
    },
  );

  test.each([
    'config_invalid',
    'network',
    'timeout',
    'id_token_invalid',
    'token_exchange_failed',
  ] as const)('in development, %s shows the developer message', (code) => {
    expect(describeSignInError(new AuthError(code, 'The developer message.'))).toBe(
      'The developer message.',
    );
  });

  test.each(['development', 'production'])(
    'a browser that cannot store the sign-in tells the user what to free (%s)',
    (mode) => {
      vi.stubEnv('NODE_ENV', mode);
      expect(describeSignInError(new AuthError('storage_failed', 'QuotaExceededError'))).toBe(
        "This browser's storage is full or blocked. Free some space or allow this site's data.",
      );
    },
  );
});
