import { describe, expect, test, vi } from 'vitest';
import page from '../../../../docs/errors.md?raw';
import { AuthError, authErrorCatalogue, authErrorCodes, isAuthError } from './errors';

describe('AuthError', () => {
  test('carries its code, message, cause and details', () => {
    const cause = new TypeError('Failed to fetch');
    const error = new AuthError('provider_error', 'The provider said no.', {
      cause,
      handled: 'The callback parameters were removed from the address bar.',
      providerError: 'access_denied',
      providerErrorDescription: 'User cancelled',
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AuthError');
    expect(error.code).toBe('provider_error');
    expect(error.message).toBe('The provider said no.');
    expect(error.cause).toBe(cause);
    expect(error.handled).toMatch(/removed/);
    expect(error.providerError).toBe('access_denied');
    expect(error.providerErrorDescription).toBe('User cancelled');
    expect(error.field).toBeUndefined();
    expect(String(error)).toBe('AuthError: The provider said no.');
  });

  test('has no cause property when none is given', () => {
    expect('cause' in new AuthError('timeout', 'Too slow.')).toBe(false);
  });
});

describe('isAuthError', () => {
  const error = new AuthError('id_token_invalid', 'aud does not contain the client id', {
    check: 'aud',
  });

  test('recognises an AuthError, with or without a code', () => {
    expect(isAuthError(error)).toBe(true);
    expect(isAuthError(error, 'id_token_invalid')).toBe(true);
    expect(isAuthError(error, 'network')).toBe(false);
  });

  test('refuses look-alikes and non-errors', () => {
    expect(isAuthError(new Error('x'))).toBe(false);
    expect(isAuthError({ name: 'AuthError', code: 'network', message: 'x' })).toBe(false);
    expect(isAuthError(null)).toBe(false);
    expect(isAuthError('network')).toBe(false);
  });
});

describe('the error catalogue', () => {
  test('has every code the design names, each with a summary and what to do', () => {
    expect(authErrorCodes).toEqual([
      'config_invalid',
      'callback_state_mismatch',
      'provider_error',
      'id_token_invalid',
      'token_exchange_failed',
      'network',
      'timeout',
      'storage_failed',
      'popup_blocked',
      'popup_closed',
      'renew_failed',
      'session_expired',
      'signed_out_elsewhere',
    ]);
    for (const code of authErrorCodes) {
      expect(authErrorCatalogue[code].summary.length).toBeGreaterThan(10);
      expect(authErrorCatalogue[code].whatToDo.length).toBeGreaterThan(10);
    }
    expect(Object.isFrozen(authErrorCatalogue)).toBe(true);
  });
});

describe('messages in a production build', () => {
  const docs = 'https://github.com/oidc-kit/oidc-kit/blob/main/docs/errors.md';

  test('an error raised without a message carries its code, detail and docs link', () => {
    expect(new AuthError('timeout', '').message).toBe(`oidc-kit timeout: see ${docs}#timeout`);
    expect(new AuthError('id_token_invalid', '', { check: 'aud' }).message).toBe(
      `oidc-kit id_token_invalid (aud): see ${docs}#id_token_invalid`,
    );
  });

  test('the engine raises short messages, without `handled`', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const { toAuthError } = await import('./toAuthError');
    const { checkIdToken } = await import('./idToken');
    const offline = toAuthError(new TypeError('Failed to fetch'), 'sign-in');
    expect(offline.code).toBe('network');
    expect(offline.message).toBe(`oidc-kit network: see ${docs}#network`);
    expect(offline.handled).toBeUndefined();
    const refused = toAuthError(
      Object.assign(new Error('x'), { name: 'ErrorResponse', error: 'invalid_grant' }),
      'renew',
    );
    expect(refused.message).toBe(
      `oidc-kit session_expired (invalid_grant): see ${docs}#session_expired`,
    );
    const token = `e30.${btoa(JSON.stringify({ iss: 'https://elsewhere' }))}.x`;
    let invalid: unknown;
    try {
      checkIdToken(token, { issuer: 'https://login.example.com', clientId: 'web', clockLeeway: 0 });
    } catch (error) {
      invalid = error;
    }
    expect(isAuthError(invalid, 'id_token_invalid') && invalid.message).toBe(
      `oidc-kit id_token_invalid (iss): see ${docs}#id_token_invalid`,
    );
  });

  test('development builds keep the full message and what was handled', async () => {
    const { toAuthError } = await import('./toAuthError');
    const offline = toAuthError(new TypeError('Failed to fetch'), 'sign-in');
    expect(offline.message).toBe('The identity provider could not be reached.');
    expect(offline.handled).toMatch(/still signed out/);
  });
});

describe('docs/errors.md, where production messages link', () => {
  test('has an entry for every code, under a heading whose anchor is the code', () => {
    const headings = [...page.matchAll(/^## (\S+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual([...authErrorCodes]);
    for (const code of authErrorCodes) {
      const entry = page.split(`## ${code}\n`)[1]?.split('\n## ')[0] ?? '';
      expect(entry, code).toMatch(/\*\*What happened\.\*\*/);
      expect(entry, code).toMatch(/\*\*Likely causes\.\*\*/);
      expect(entry, code).toMatch(/\*\*What to do\.\*\*/);
    }
  });
});

describe('toAuthError: what counts as the provider out of reach', () => {
  // A fetch that failed, in each engine's wording, is network; a property read of an answer that
  // is JSON null, in each engine's wording, is the operation failing.
  test.each([
    ['Failed to fetch', 'network', 'network'],
    ['NetworkError when attempting to fetch resource.', 'network', 'network'],
    ['Load failed', 'network', 'network'],
    ['fetch failed', 'network', 'network'],
    ["Cannot read properties of null (reading 'error')", 'token_exchange_failed', 'renew_failed'],
    ['can\'t access property "error", json is null', 'token_exchange_failed', 'renew_failed'],
    ["null is not an object (evaluating 'json.error')", 'token_exchange_failed', 'renew_failed'],
    [
      "Cannot read properties of undefined (reading 'sub')",
      'token_exchange_failed',
      'renew_failed',
    ],
  ])('TypeError: %s', async (message, callback, renew) => {
    const { toAuthError } = await import('./toAuthError');
    expect(toAuthError(new TypeError(message), 'callback').code).toBe(callback);
    expect(toAuthError(new TypeError(message), 'renew').code).toBe(renew);
  });
});
