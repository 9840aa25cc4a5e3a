import { InMemoryWebStorage, User, WebStorageStateStore } from 'oidc-client-ts';
import type { UserManager } from 'oidc-client-ts';
import { describe, expect, test } from 'vitest';
import { deferred } from '../../test/support/deferred';
import { CheckedUserStore } from './CheckedUserStore';
import { UserStorage } from './UserStorage';

const settings = { authority: 'https://id.example.com', client_id: 'app' };
const key = 'user:https://id.example.com:app';

/** A `UserStorage` over a checked store in memory, and that memory. */
function storage(session: string | null = 'current') {
  const memory = new InMemoryWebStorage();
  const store = new CheckedUserStore(
    new WebStorageStateStore({ store: memory, prefix: '' }),
    async () => {},
    () => session,
  );
  const manager = { settings } as unknown as UserManager;
  return { users: new UserStorage(() => ({ manager, store })), store, memory };
}

function user(access_token = 'at-1'): User {
  return new User({
    access_token,
    token_type: 'Bearer',
    profile: { sub: 'alice', iss: settings.authority, aud: settings.client_id, exp: 0, iat: 0 },
    expires_at: 2_000_000_000,
  });
}

describe('UserStorage', () => {
  test('reads null while no user is stored', async () => {
    await expect(storage().users.readStored()).resolves.toBeNull();
  });

  test('stores a user under the client’s key, and reads it back with the session it names', async () => {
    const { users, memory } = storage();
    await users.storeUser(user(), 'session-1');
    expect(memory.getItem(key)).not.toBeNull();
    const stored = await users.readStored();
    expect(stored?.session).toBe('session-1');
    expect(stored?.user.access_token).toBe('at-1');
    expect(stored?.user.profile.sub).toBe('alice');
  });

  test('reads a user that names no session with a null session', async () => {
    const { users, memory } = storage();
    memory.setItem(key, user().toStorageString());
    const stored = await users.readStored();
    expect(stored?.session).toBeNull();
    expect(stored?.user.access_token).toBe('at-1');
  });

  test('reads an expiry past a number’s range as unknown, not as long expired', async () => {
    const { users, memory } = storage();
    memory.setItem(
      key,
      JSON.stringify({ ...JSON.parse(user().toStorageString()), expires_at: null }),
    );
    const stored = await users.readStored();
    expect(stored?.user.expires_at).toBeUndefined();
    expect(stored?.user.expired).toBeUndefined();
  });

  test('clears the stored user, and a store that fails to does not reject', async () => {
    const { users, store } = storage();
    await users.storeUser(user(), 'session-1');
    await users.clearUser();
    await expect(users.readStored()).resolves.toBeNull();
    store.remove = () => Promise.reject(new Error('storage refused'));
    await expect(users.clearUser()).resolves.toBeUndefined();
  });

  test('runs writes in turn: each begins once the one before has ended, failed or not', async () => {
    const { users } = storage();
    const ended: string[] = [];
    const began: string[] = [];
    const slowWrite = deferred();
    const write = (name: string, done: () => Promise<void>) =>
      users.storeInTurn(async () => {
        began.push(`${name} after [${ended.join(', ')}]`);
        await done();
        ended.push(name);
        if (name === 'first') throw new Error('first failed');
        return `${name} done`;
      });
    const one = write('first', () => slowWrite.promise);
    const two = write('second', async () => {});
    const three = write('third', async () => {});
    slowWrite.resolve();
    await expect(one).rejects.toThrow('first failed');
    await expect(two).resolves.toBe('second done');
    await expect(three).resolves.toBe('third done');
    expect(began).toEqual([
      'first after []',
      'second after [first]',
      'third after [first, second]',
    ]);
  });
});
