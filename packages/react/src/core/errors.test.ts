import { describe, expect, test } from 'vitest';
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
