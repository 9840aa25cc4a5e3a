import { User } from 'oidc-client-ts';
import { knownExpiry } from './knownExpiry';
import type { Users } from './SessionCore';
import { sessionField } from './storedUser';
import type { StoredUser } from './storedUser';

/**
 * The user this client keeps: one entry in the checked user store (see `createUserManager`), with
 * the id of the session it belongs to. Read, written once checked, cleared; and a new session's
 * user is written in turn with the others (`storeInTurn`).
 */
export class UserStorage {
  /** The last write begun in turn (see `storeInTurn`). */
  private storing: Promise<unknown> = Promise.resolve();

  constructor(private readonly users: Users) {}

  /** The stored user with the id of its session, or null. */
  async readStored(): Promise<StoredUser | null> {
    const stored = await this.users().store.get(this.userKey());
    if (!stored) return null;
    const session = (JSON.parse(stored) as Record<string, unknown>)[sessionField];
    return {
      user: knownExpiry(User.fromStorageString(stored)),
      session: typeof session === 'string' ? session : null,
    };
  }

  /** Stores `user`, checked already, as the user of `session`. */
  storeUser(user: User, session: string): Promise<void> {
    return this.users().store.setTrusted(this.userKey(), user.toStorageString(), session);
  }

  /** Removes the stored user; a store that fails to is no error here. */
  async clearUser(): Promise<void> {
    await this.users()
      .store.remove(this.userKey())
      .catch(() => undefined);
  }

  /**
   * Runs `write` once every write before it has ended: an adopted session and this tab's sign-in,
   * stored at once by an asynchronous store, end in the order they began.
   */
  storeInTurn<T>(write: () => Promise<T>): Promise<T> {
    const run = this.storing.then(write);
    this.storing = run.catch(() => undefined);
    return run;
  }

  private userKey(): string {
    const { authority, client_id } = this.users().manager.settings;
    return `user:${authority}:${client_id}`;
  }
}
