import { User } from 'oidc-client-ts';
import { describe, expect, test } from 'vitest';
import { AuthError } from './errors';
import { StateStore } from './stateStore';

const failure = new AuthError('network', 'The provider could not be reached.');
const user = new User({
  access_token: 'at',
  token_type: 'Bearer',
  profile: { sub: 'alice', iss: 'https://id.example.com', aud: 'app', exp: 0, iat: 0 },
});

describe('StateStore.setError', () => {
  test('an error ends a load: loading → error', () => {
    const store = new StateStore();
    store.setError(failure);
    expect(store.snapshot).toMatchObject({ status: 'error', user: null, error: failure });
  });

  test('none ends an error: error → unauthenticated, the error gone', () => {
    const store = new StateStore();
    store.setError(failure);
    store.setError(null);
    expect(store.snapshot).toMatchObject({ status: 'unauthenticated', error: null });
  });

  test('other states keep their status, their user and their sign-out reason', () => {
    const store = new StateStore();
    store.set('authenticated', user, null);
    store.setError(failure);
    expect(store.snapshot).toMatchObject({ status: 'authenticated', user, error: failure });
    store.setError(null);
    expect(store.snapshot).toMatchObject({ status: 'authenticated', user, error: null });
    store.set('unauthenticated', null, null, 'user');
    store.setError(failure);
    expect(store.snapshot).toMatchObject({
      status: 'unauthenticated',
      error: failure,
      signOutReason: 'user',
    });
  });
});
