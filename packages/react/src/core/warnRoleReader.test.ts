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
    [
      'is async',
      async () => ['admin'],
      /^oidc-kit: the `roles` reader gave \[object Promise\], not a list, so this user has no roles/,
    ],
    [
      'returns a Set',
      () => new Set(['admin']) as unknown as string[],
      /^oidc-kit: the `roles` reader gave \[object Set\], not a list, so this user has no roles/,
    ],
    [
      'returns what JSON cannot write (a cycle)',
      () => {
        const node: Record<string, unknown> = {};
        node.self = node;
        return node as unknown as string[];
      },
      /^oidc-kit: the `roles` reader gave \[object Object\], not a list, so this user has no roles/,
    ],
  ] as [string, RoleReader, RegExp][])('one that %s', (_what, reader, said) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = clientReading(reader);
    expect(client.readRoles(createTestUser())).toEqual([]);
    expect(client.readRoles(createTestUser({ name: 'Bob' }))).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toMatch(said);
  });

  test('the warning shows no token, nor any claim, of a user given back', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = createTestUser({ claims: { email: 'ann@example.com' } });
    clientReading((given) => given as unknown as string[]).readRoles(user);
    expect(warn).toHaveBeenCalledOnce();
    const said = String(warn.mock.calls[0]?.[0]);
    for (const secret of [user.access_token, user.id_token ?? '', 'ann@example.com']) {
      expect(said).not.toContain(secret);
    }
  });

  test('a reader that gives a list, empty or not, is not', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(clientReading(() => ['admin']).readRoles(createTestUser())).toEqual(['admin']);
    expect(clientReading(() => []).readRoles(createTestUser())).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
