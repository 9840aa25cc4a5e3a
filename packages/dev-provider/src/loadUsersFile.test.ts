import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { defaultUsersFile, loadUsersFile, parseUsers } from './loadUsersFile.js';
import { startDevProvider } from './startDevProvider.js';
import { tempDir } from './test-support/tempDir.js';

const dir = tempDir('dev-provider-users');
function usersFile(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
async function configError(promise: Promise<unknown>): Promise<DevProviderConfigError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DevProviderConfigError);
  return error as DevProviderConfigError;
}

describe('the seeded users file', () => {
  it('is the package users.json with alice and bob', async () => {
    expect(defaultUsersFile).toMatch(/dev-provider[/\\]users\.json$/);
    expect(JSON.parse(readFileSync(defaultUsersFile, 'utf8'))).toHaveLength(2);
    expect(await loadUsersFile(defaultUsersFile)).toEqual([
      {
        username: 'alice',
        password: 'alice',
        sub: 'alice',
        name: 'Alice Liddell',
        email: 'alice@example.com',
        email_verified: true,
        roles: ['user'],
      },
      {
        username: 'bob',
        password: 'bob',
        sub: 'bob',
        name: 'Bob Stone',
        email: 'bob@example.com',
        email_verified: true,
        roles: ['user', 'admin'],
      },
    ]);
  });
});

describe('parseUsers', () => {
  const list = { kind: 'users file', source: '/tmp/users.json' };

  it('fills in sub, email_verified and roles and keeps optional claims out', () => {
    expect(parseUsers([{ username: 'carol', password: 'pw' }], list)).toEqual([
      { username: 'carol', password: 'pw', sub: 'carol', email_verified: false, roles: [] },
    ]);
    expect(parseUsers([{ username: 'dan', password: 'pw', sub: 'user-42' }], list)[0]?.sub).toBe(
      'user-42',
    );
  });

  it.each([
    ['not an array', { users: [] }, undefined, undefined, /must be a non-empty JSON array/],
    ['an empty array', [], undefined, undefined, /non-empty JSON array/],
    ['an entry that is not an object', ['alice'], 1, undefined, /must be an object/],
    ['a missing password', [{ username: 'alice' }], 1, 'password', /is missing/],
    ['an empty username', [{ username: '', password: 'x' }], 1, 'username', /non-empty string/],
    [
      'roles that are not an array',
      [
        { username: 'a', password: 'a' },
        { username: 'bob', password: 'b', roles: 'admin' },
      ],
      2,
      'roles',
      /must be an array of non-empty strings, e\.g\. "roles": \["user", "admin"\]/,
    ],
    [
      'a non-boolean email_verified',
      [{ username: 'a', password: 'a', email_verified: 'yes' }],
      1,
      'email_verified',
      /true or false/,
    ],
    [
      'an invalid email',
      [{ username: 'a', password: 'a', email: 'nope' }],
      1,
      'email',
      /email address/,
    ],
    [
      'an unknown field',
      [{ username: 'a', password: 'a', mail: 'a@b.c' }],
      1,
      'mail',
      /not a known field/,
    ],
    [
      'a duplicate username',
      [
        { username: 'a', password: 'a' },
        { username: 'a', password: 'b' },
      ],
      2,
      'username',
      /already used/,
    ],
  ])('refuses %s, naming the entry and field', (_label, value, entry, field, problem) => {
    let error: unknown;
    try {
      parseUsers(value, list);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DevProviderConfigError);
    const configError = error as DevProviderConfigError;
    expect(configError.message).toMatch(/^oidc-kit-dev-provider: users file \/tmp\/users\.json/);
    expect(configError.message).toMatch(problem);
    expect(configError.source).toBe('/tmp/users.json');
    expect(configError.index).toBe(entry === undefined ? undefined : entry - 1);
    expect(configError.field).toBe(field);
    if (entry !== undefined) expect(configError.message).toContain(`entry ${entry}`);
    if (field !== undefined) expect(configError.message).toContain(`field "${field}"`);
  });

  it('names the entry by its username', () => {
    expect(() =>
      parseUsers(
        [
          { username: 'alice', password: 'a' },
          { username: 'bob', password: 7 },
        ],
        list,
      ),
    ).toThrow(
      'oidc-kit-dev-provider: users file /tmp/users.json, entry 2 ("bob"), field "password": must be a non-empty string, e.g. "password": "alice".',
    );
  });
});

describe('loadUsersFile', () => {
  it('reads a users file', async () => {
    const path = usersFile('ok.json', [{ username: 'carol', password: 'c', roles: ['auditor'] }]);
    expect((await loadUsersFile(path))[0]?.roles).toEqual(['auditor']);
  });

  // Windows editors and PowerShell's Set-Content -Encoding UTF8 start the file with a byte order
  // mark, invisible in the editor: "not valid JSON ... Fix the syntax" pointed at nothing.
  it('reads a users file saved with a UTF-8 byte order mark', async () => {
    const path = usersFile(
      'bom.json',
      `\uFEFF${JSON.stringify([{ username: 'dan', password: 'd' }])}`,
    );
    expect((await loadUsersFile(path))[0]?.username).toBe('dan');
  });

  it('refuses a file that is not JSON, naming it', async () => {
    const path = usersFile('broken.json', '[{"username": "alice",]');
    const error = await configError(loadUsersFile(path));
    expect(error.message).toContain(`users file ${path} is not valid JSON`);
  });

  it('refuses a missing file, naming it', async () => {
    const error = await configError(loadUsersFile(join(dir, 'missing.json')));
    expect(error.message).toContain(
      `users file ${join(dir, 'missing.json')} cannot be read (ENOENT)`,
    );
  });

  it('stops startDevProvider before it listens', async () => {
    const path = usersFile('bad-roles.json', [
      { username: 'alice', password: 'alice' },
      { username: 'bob', password: 'bob', roles: [1] },
    ]);
    const error = await configError(startDevProvider({ port: 0, quiet: true, usersFile: path }));
    expect(error.message).toBe(
      `oidc-kit-dev-provider: users file ${path}, entry 2 ("bob"), field "roles": must be an array of non-empty strings, e.g. "roles": ["user", "admin"].`,
    );
  });
});
