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
