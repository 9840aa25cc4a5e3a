import { describe, expect, it } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { checkScopeToken, parseApiScopes } from './parseApiScopes.js';

const option = { kind: 'option', source: '--api-scope' };

describe('parseApiScopes', () => {
  it('adds the given scopes to the built-in ones, once each, in order', () => {
    expect(parseApiScopes(undefined)).toEqual(['openid', 'profile', 'email', 'roles']);
    expect(parseApiScopes(['invoices:read', 'roles', 'orders:read', 'invoices:read'])).toEqual([
      'openid',
      'profile',
      'email',
      'roles',
      'invoices:read',
      'orders:read',
    ]);
  });
});

describe('checkScopeToken', () => {
  // RFC 6749 §3.3: %x21 / %x23-5B / %x5D-7E, so every printable ASCII character but `"` and `\`.
  it.each(['!', '#', '[', ']', '~', 'https://api.example.com/invoices.read', 'a,b'])(
    'accepts %j',
    (scope) => {
      expect(() => checkScopeToken(scope, option)).not.toThrow();
    },
  );

  it.each(['', 'a b', 'a"b', 'a\\b', 'a\tb', 'a\x7Fb', 'café'])('refuses %j', (scope) => {
    expect(() => checkScopeToken(scope, option)).toThrow(DevProviderConfigError);
  });
});
