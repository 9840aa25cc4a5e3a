import { User } from 'oidc-client-ts';
import { describe, expect, test, vi } from 'vitest';
import { createTestUser } from '../testing/createTestUser';
import { checkAccess } from './checkAccess';
import { defaultRoleReader, roleReaders } from './roles';

function jwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

/** A Keycloak user as it arrives by default: roles in the access token only. */
function keycloakUser(): User {
  return new User({
    access_token: jwt({ realm_access: { roles: ['admin'] }, azp: 'web' }),
    token_type: 'Bearer',
    profile: { iss: 'https://kc.example/realms/shop', sub: 'u1', aud: 'web', exp: 2e9, iat: 1e9 },
  });
}

describe('roles required, and the reader finds none where the provider put them', () => {
  // The default reader reads a plain `roles` claim; Keycloak, Cognito, Auth0, Okta and Entra put
  // roles elsewhere. The guard then shows "Forbidden" to an admin, which looks like a right answer.
  test.each([
    ['Keycloak', keycloakUser(), "roleReaders.keycloak({ clientId: 'web' })"],
    [
      'Cognito',
      createTestUser({ claims: { 'cognito:groups': ['admin'] } }),
      'roleReaders.cognito()',
    ],
    [
      'Auth0',
      createTestUser({ claims: { 'https://shop.example.com/roles': ['admin'] } }),
      "roleReaders.auth0('https://shop.example.com/roles')",
    ],
    ['Okta or Entra ID', createTestUser({ claims: { groups: ['admin'] } }), 'roleReaders.okta()'],
  ])('%s: denied, and development names the reader to use', (_provider, user, reader) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(checkAccess(user, { roles: ['admin'] }, defaultRoleReader)).toBe(false);
    expect(checkAccess(user, { roles: ['admin'] }, defaultRoleReader)).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('oidc-kit: ');
    expect(String(warn.mock.calls[0]?.[0])).toContain(`roles: ${reader}`);
  });

  test('a provider reader set, the roles in a plain `roles` claim (where the dev provider puts them): development names that claim', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = createTestUser({ roles: ['admin'] });
    expect(checkAccess(user, { roles: ['admin'] }, roleReaders.keycloak())).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain("roles: roleReaders.claim('roles')");
  });

  test('no warning for a user who holds other roles, has none anywhere, or in production', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(
      checkAccess(createTestUser({ roles: ['viewer'] }), { roles: ['admin'] }, defaultRoleReader),
    ).toBe(false);
    expect(checkAccess(createTestUser(), { roles: ['admin'] }, defaultRoleReader)).toBe(false);
    expect(checkAccess(keycloakUser(), { roles: ['admin'] }, roleReaders.keycloak())).toBe(true);
    vi.stubEnv('NODE_ENV', 'production');
    expect(checkAccess(keycloakUser(), { roles: ['admin'] }, defaultRoleReader)).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });

  test('no warning when the app set its own reader: a user without the role is simply denied', () => {
    // The reader in the config is the app's choice (a custom claim, or the provider's reader); a
    // user it finds no role for is one without roles, whatever else the claims hold.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const oktaUser = createTestUser({ claims: { groups: ['Everyone'] } });
    const appRoles = roleReaders.claim('app_roles');
    expect(checkAccess(oktaUser, { roles: ['admin'] }, appRoles)).toBe(false);
    const withoutGroups = createTestUser({ claims: { groups: [] } });
    expect(checkAccess(withoutGroups, { roles: ['admin'] }, roleReaders.okta())).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });
});
