import { afterEach, describe, expect, test, vi } from 'vitest';
import { createTestUser } from '../testing/createTestUser';
import { AuthClient } from './AuthClient';
import type { RoleReader } from './roles';

const oidc = {
  authority: 'https://id.example.com',
  client_id: 'app',
  redirect_uri: `${globalThis.location.origin}/callback`,
};

const clientReading = (roles: RoleReader) => new AuthClient({ ...oidc, roles });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a roles reader of the app’s own that gives no list is said in development, once per reader', () => {
  test.each([
    [
      'throws',
      // Keycloak's claim read as if every user had it.
      (user) => (user.profile.realm_access as { roles: string[] }).roles,
      /^oidc-kit: the `roles` reader threw \(TypeError: .+\), so this user has no roles and every role check denies access\. A reader takes the user and returns a string\[\]/,
    ],
    [
      'returns undefined',
      (user) => user.profile.groups as string[],
      /^oidc-kit: the `roles` reader gave undefined, not a list, so this user has no roles/,
    ],
    [
      'returns a string',
      () => 'admin' as unknown as string[],
      /^oidc-kit: the `roles` reader gave "admin", not a list, so this user has no roles/,
    ],
  ] as [string, RoleReader, RegExp][])('one that %s', (_what, reader, said) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = clientReading(reader);
    expect(client.readRoles(createTestUser())).toEqual([]);
    expect(client.readRoles(createTestUser({ name: 'Bob' }))).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toMatch(said);
  });

  test('a reader that gives a list, empty or not, is not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(clientReading(() => ['admin']).readRoles(createTestUser())).toEqual(['admin']);
    expect(clientReading(() => []).readRoles(createTestUser())).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
