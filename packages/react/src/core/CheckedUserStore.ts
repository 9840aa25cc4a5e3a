import { User } from 'oidc-client-ts';
import type { StateStore } from 'oidc-client-ts';

/** Checks a user about to be stored; throws to refuse it. `previous` is the user stored now. */
export type UserCheck = (user: User, previous: User | null) => Promise<void>;

/**
 * The user store oidc-kit gives oidc-client-ts: every user that oidc-client-ts stores (after a
 * callback, a popup, a refresh, a silent renew) passes the checks first, so a user that fails them
 * is never written. Users with an ID token already stored (a refresh that returned none, a
 * revocation) and users shared by another tab (`setTrusted`) are not checked again.
 */
export class CheckedUserStore implements StateStore {
  constructor(
    private readonly inner: StateStore,
    private readonly check: UserCheck,
  ) {}

  async set(key: string, value: string): Promise<void> {
    const user = User.fromStorageString(value);
    const stored = await this.inner.get(key);
    const previous = stored ? User.fromStorageString(stored) : null;
    if (previous === null || user.id_token !== previous.id_token) await this.check(user, previous);
    await this.inner.set(key, value);
  }

  /** Stores a user that was checked already, in this tab or another one. */
  async setTrusted(key: string, value: string): Promise<void> {
    await this.inner.set(key, value);
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
