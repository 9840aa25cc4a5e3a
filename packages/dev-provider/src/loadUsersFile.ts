import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eachEntry, type ListSource } from './EntryChecker.js';
import { readJsonFile } from './readJsonFile.js';

/** A user who can sign in to the dev provider; the fields become the ID token and userinfo claims. */
export interface DevUser {
  /** Login name, also the `preferred_username` claim. */
  username: string;
  /** Plain-text password: this provider is for development and tests only. */
  password: string;
  /** Subject identifier (`sub`); defaults to `username`. */
  sub?: string;
  name?: string;
  email?: string;
  /** Defaults to `false`. */
  email_verified?: boolean;
  /** The `roles` claim, in the ID token, userinfo and API access tokens. Defaults to `[]`. */
  roles?: string[];
}

/** A {@link DevUser} with its defaults filled in. */
export type ResolvedDevUser = DevUser & Required<Pick<DevUser, 'sub' | 'email_verified' | 'roles'>>;

/** The seeded users file shipped with the package (alice and bob). */
export const defaultUsersFile: string = fileURLToPath(new URL('../users.json', import.meta.url));

const userFields = ['username', 'password', 'sub', 'name', 'email', 'email_verified', 'roles'];
const example = '{"username": "alice", "password": "alice", "name": "Alice Liddell"}';

/**
 * Checks a list of users (parsed JSON or the `users` option) and returns them with defaults filled
 * in. Throws a `DevProviderConfigError` naming the source, the entry and the field.
 */
export function parseUsers(value: unknown, list: ListSource): ResolvedDevUser[] {
  const users: ResolvedDevUser[] = [];
  for (const { check, index } of eachEntry(value, list, 'username', example)) {
    check.onlyFields(userFields);
    const username = check.requiredString('username', '"alice"');
    const password = check.requiredString('password', '"alice"');
    const sub = check.string('sub', '"user-1"') ?? username;
    const name = check.string('name', '"Alice Liddell"');
    const email = check.string('email', '"alice@example.com"');
    if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) {
      check.fail('email', `must be an email address, e.g. "email": "alice@example.com".`);
    }
    const emailVerified = check.boolean('email_verified') ?? false;
    const roles = check.stringArray('roles', '["user", "admin"]') ?? [];
    for (const other of users) {
      if (other.username === username) {
        check.fail(
          'username',
          `"${username}" is already used by another entry; usernames must be unique.`,
        );
      }
      if (other.sub === sub) {
        check.fail(
          username === sub ? 'username' : 'sub',
          `the subject "${sub}" is already used by another entry; subjects must be unique.`,
        );
      }
    }
    users[index] = {
      username,
      password,
      sub,
      ...(name === undefined ? {} : { name }),
      ...(email === undefined ? {} : { email }),
      email_verified: emailVerified,
      roles,
    };
  }
  return users;
}

/** Reads and checks a users file (a JSON array of {@link DevUser}). */
export async function loadUsersFile(path: string): Promise<ResolvedDevUser[]> {
  const list = { kind: 'users file', source: resolve(path) };
  return parseUsers(await readJsonFile(list.source, list.kind), list);
}
