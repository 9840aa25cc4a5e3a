import { User } from 'oidc-client-ts';
import type { StateStore } from 'oidc-client-ts';
import { sessionField } from './storedUser';

/** Checks a user about to be stored; throws to refuse it. `previous` is the user stored now. */
export type UserCheck = (user: User, previous: User | null) => Promise<void>;

/**
 * The user store oidc-kit gives oidc-client-ts: every user that oidc-client-ts stores (after a
 * callback, a popup, a refresh, a silent renew) passes the checks first, so a user that fails them
 * is never written; users shared by another tab are checked before `setTrusted`.
 * Each user is stored with the id of the session it belongs to.
 */
export class CheckedUserStore implements StateStore {
  constructor(
    private readonly inner: StateStore,
    private readonly check: UserCheck,
    private readonly session: () => string | null,
  ) {}

  async set(key: string, value: string): Promise<void> {
    const user = User.fromStorageString(value);
    const stored = await this.inner.get(key);
    const previous = stored ? User.fromStorageString(stored) : null;
    await this.check(user, previous);
    await this.setTrusted(key, value);
  }

  /** Stores a user that was checked already, as a user of `session` (default: the current one). */
  async setTrusted(key: string, value: string, session = this.session()): Promise<void> {
    const fields = JSON.parse(value) as Record<string, unknown>;
    await this.inner.set(key, JSON.stringify({ ...fields, [sessionField]: session }));
  }

  get(key: string): Promise<string | null> {
    return this.inner.get(key);
  }

  remove(key: string): Promise<string | null> {
    return this.inner.remove(key);
  }

  getAllKeys(): Promise<string[]> {
    return this.inner.getAllKeys();
  }
}
