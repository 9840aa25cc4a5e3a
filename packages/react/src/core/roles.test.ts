import { User } from 'oidc-client-ts';
import { describe, expect, test } from 'vitest';
import { createTestUser } from '../testing/createTestUser';
import { defaultRoleReader, roleReaders } from './roles';

function jwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

/** A user whose roles are only in the access token, as several providers issue them. */
function withAccessToken(claims: Record<string, unknown>): User {
  return new User({
    access_token: jwt(claims),
    token_type: 'Bearer',
    profile: { iss: 'https://id.example', sub: 'u1', aud: 'web', exp: 2e9, iat: 1e9 },
  });
}

describe('role readers on realistic tokens', () => {
  test('Keycloak: realm roles and the client roles, from the access token', () => {
    const user = withAccessToken({
      iss: 'https://kc.example/realms/shop',
      azp: 'web',
      realm_access: { roles: ['offline_access', 'uma_authorization', 'customer'] },
      resource_access: { web: { roles: ['orders-admin'] }, account: { roles: ['manage-account'] } },
      scope: 'openid profile email',
    });
    expect(roleReaders.keycloak({ clientId: 'web' })(user)).toEqual([
      'offline_access',
      'uma_authorization',
      'customer',
      'orders-admin',
    ]);
    expect(roleReaders.keycloak()(user)).not.toContain('orders-admin');
  });

  test('Microsoft Entra ID: app roles and group ids from the ID token', () => {
    const user = createTestUser({
      claims: {
        tid: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        oid: '00000000-0000-0000-66f3-3332eca7ea81',
        roles: ['Orders.Admin'],
        groups: ['d7b3f1c2-0000-4000-8000-000000000001'],
      },
    });
    expect(roleReaders.entra()(user)).toEqual([
      'Orders.Admin',
      'd7b3f1c2-0000-4000-8000-000000000001',
    ]);
  });

  test('Auth0: a namespaced claim', () => {
    const user = createTestUser({
      claims: { 'https://shop.example.com/roles': ['admin'], roles: undefined },
    });
    expect(roleReaders.auth0('https://shop.example.com/roles')(user)).toEqual(['admin']);
  });

  test('Okta: groups', () => {
    const user = createTestUser({ claims: { groups: ['Everyone', 'Admins'], ver: 1 } });
    expect(roleReaders.okta()(user)).toEqual(['Everyone', 'Admins']);
  });

  test('Amazon Cognito: cognito:groups, from the access token', () => {
    const user = withAccessToken({
      'cognito:groups': ['admins', 'editors'],
      token_use: 'access',
      client_id: 'abc123',
      username: 'alice',
    });
    expect(roleReaders.cognito()(user)).toEqual(['admins', 'editors']);
  });

  test('a plain claim by dotted path, arrays or space/comma-separated strings', () => {
    expect(
      roleReaders.claim('app_metadata.roles')(
        createTestUser({ claims: { app_metadata: { roles: ['a'] } } }),
      ),
    ).toEqual(['a']);
    expect(
      roleReaders.claim('scp')(createTestUser({ claims: { scp: 'read write,admin' } })),
    ).toEqual(['read', 'write', 'admin']);
    expect(roleReaders.claim('missing.path')(createTestUser())).toEqual([]);
  });

  test('the default reads the roles claim, and an opaque access token reads as none', () => {
    expect(defaultRoleReader(createTestUser({ roles: ['user', 'admin'] }))).toEqual([
      'user',
      'admin',
    ]);
    const opaque = new User({
      access_token: 'opaque-token',
      token_type: 'Bearer',
      profile: { iss: 'https://id.example', sub: 'u1', aud: 'web', exp: 2e9, iat: 1e9 },
    });
    expect(defaultRoleReader(opaque)).toEqual([]);
  });
});
