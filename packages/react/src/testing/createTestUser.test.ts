import { User } from 'oidc-client-ts';
import { describe, expect, test } from 'vitest';
import { createTestUser } from './createTestUser';

function claims(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1] ?? '';
  const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

describe('createTestUser', () => {
  test('builds a real User with realistic defaults', () => {
    const user = createTestUser();
    expect(user).toBeInstanceOf(User);
    expect(user.profile.name).toBe('Test User');
    expect(user.profile.preferred_username).toBe('test.user');
    expect(user.profile.email).toBe('test.user@example.test');
    expect(user.token_type).toBe('Bearer');
    expect(user.scopes).toEqual(['openid', 'profile', 'email']);
    expect(user.expired).toBe(false);
    expect(user.expires_in).toBeGreaterThan(3590);
    expect(user.refresh_token).toBe('test-refresh-user-test.user');
  });

  test('puts the given claims in the profile and in both tokens', () => {
    const user = createTestUser({
      name: 'Alice Liddell',
      email: 'alice@example.com',
      roles: ['user', 'admin'],
      scope: 'openid api:read',
      claims: { 'cognito:groups': ['admins'] },
    });
    expect(user.profile).toMatchObject({
      name: 'Alice Liddell',
      email: 'alice@example.com',
      roles: ['user', 'admin'],
    });
    expect(claims(user.id_token ?? '')).toMatchObject({
      name: 'Alice Liddell',
      'cognito:groups': ['admins'],
    });
    expect(claims(user.access_token)).toMatchObject({
      scope: 'openid api:read',
      roles: ['user', 'admin'],
    });
  });

  test('makes expired and non-refreshable users', () => {
    const user = createTestUser({ expiresIn: -10, refreshable: false });
    expect(user.expired).toBe(true);
    expect(user.refresh_token).toBeUndefined();
  });

  test('survives the round trip through storage that oidc-client-ts does', () => {
    const user = createTestUser({ name: 'Zoë Ünicode' });
    const restored = User.fromStorageString(user.toStorageString());
    expect(restored.profile.name).toBe('Zoë Ünicode');
    expect(claims(restored.id_token ?? '').name).toBe('Zoë Ünicode');
  });
});
