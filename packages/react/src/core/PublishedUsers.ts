import type { User } from 'oidc-client-ts';
import { withoutRefreshToken } from './sharedSession';

/**
 * The users the app may read (the snapshot, `renew()`), by the users the engine holds. In memory
 * storage a published user has no refresh token: that stays in the engine, out of the app's
 * script too (session protocol, rule 2), and `refreshTokenOf` reads it. In the other storages a
 * user is published as it is.
 */
export class PublishedUsers {
  private readonly shownUsers = new WeakMap<User, User>();

  private readonly heldTokens = new WeakMap<User, string>();

  /** `hideRefreshTokens`: memory storage. */
  constructor(private readonly hideRefreshTokens: boolean) {}

  /** `user` as the app may read it; the same user gives the same object, so a snapshot changes only when it does. */
  publish(user: User): User {
    const token = user.refresh_token;
    if (!this.hideRefreshTokens || token === undefined) return user;
    let shown = this.shownUsers.get(user);
    if (shown === undefined) {
      shown = withoutRefreshToken(user);
      this.shownUsers.set(user, shown);
      this.heldTokens.set(shown, token);
    }
    return shown;
  }

  /** The refresh token of `user`, whether the engine's or a published one. */
  refreshTokenOf(user: User): string | undefined {
    return this.heldTokens.get(user) ?? user.refresh_token;
  }
}
