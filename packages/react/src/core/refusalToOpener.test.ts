import { describe, expect, test } from 'vitest';
import { AuthError, isAuthError } from './errors';
import { refusalUrl, refusalFromWindow } from './refusalToOpener';
import { toAuthError } from './toAuthError';

/** What oidc-client-ts raises in the opener for an error response. */
function errorResponse(url: string) {
  const params = new URL(url).searchParams;
  return {
    name: 'ErrorResponse',
    message: params.get('error'),
    error: params.get('error'),
    error_description: params.get('error_description') ?? undefined,
  };
}

describe('handing a refused response over to the opener', () => {
  const callback = 'https://app.example/callback?code=secret&state=s1&iss=https%3A%2F%2Fevil';

  test('the error response keeps the state and drops the code and everything else', () => {
    const url = new URL(
      refusalUrl(
        callback,
        new AuthError('id_token_invalid', 'Bad iss.', { check: 'callback_iss' }),
      ),
    );
    expect(url.origin + url.pathname).toBe('https://app.example/callback');
    expect([...url.searchParams.keys()]).toEqual(['state', 'error', 'error_description']);
    expect(url.searchParams.get('state')).toBe('s1');
  });

  test('the opener reads back the same code, check and message', () => {
    const error = new AuthError('id_token_invalid', 'Bad iss.', { check: 'callback_iss' });
    const back = toAuthError(errorResponse(refusalUrl(callback, error)), 'sign-in');
    expect(isAuthError(back, 'id_token_invalid')).toBe(true);
    expect(back.check).toBe('callback_iss');
    expect(back.message).toBe('Bad iss.');
    const network = toAuthError(
      errorResponse(refusalUrl(callback, new AuthError('network', 'Offline.'))),
      'renew',
    );
    expect(network.code).toBe('network');
    expect(network.check).toBeUndefined();
  });

  test('an unknown code, or a provider error without the prefix, is an ordinary provider error', () => {
    expect(refusalFromWindow('oidc-kit:made_up/x', 'text', null)).toBeNull();
    expect(refusalFromWindow('access_denied', 'text', null)).toBeNull();
    const forged = toAuthError(
      { name: 'ErrorResponse', error: 'oidc-kit:made_up', message: 'x' },
      'sign-in',
    );
    expect(forged.code).toBe('provider_error');
  });

  test('an endpoint’s refusal or a sign-out return is never taken for a hand-over', () => {
    const body = JSON.stringify({ error: 'oidc-kit:id_token_invalid/nonce' });
    const nonceAnswer = Object.assign(new Error(body), { name: 'ErrorDPoPNonce', nonce: 'n' });
    expect(toAuthError(nonceAnswer, 'renew').code).toBe('renew_failed');
    const tokenAnswer = {
      name: 'ErrorResponse',
      error: 'oidc-kit:network/',
      form: {},
      message: 'x',
    };
    expect(toAuthError(tokenAnswer, 'renew').code).toBe('renew_failed');
    const signOutReturn = {
      name: 'ErrorResponse',
      error: 'oidc-kit:config_invalid/x',
      message: 'x',
    };
    expect(toAuthError(signOutReturn, 'sign-out').code).toBe('provider_error');
  });
});
