import { User } from 'oidc-client-ts';
import type { IdTokenClaims } from './idToken';
import { knownExpiry } from './knownExpiry';

/** A session as one tab hands it to another: the session's id and the user as a storage string. */
export interface SharedSession {
  readonly id: string;
  readonly user: string;
}

/** Whether `value` has the shape of a {@link SharedSession} (it comes from a message). */
export function isSharedSession(value: unknown): value is SharedSession {
  const session = value as Partial<SharedSession> | null;
  return typeof session?.id === 'string' && typeof session.user === 'string';
}

/**
 * The session `id` with `user`, for another tab. With `keepRefreshToken` false (memory storage)
 * the refresh token stays in this tab: other tabs get the access and ID tokens only.
 */
export function shareSession(id: string, user: User, keepRefreshToken: boolean): SharedSession {
  const shared = keepRefreshToken ? user : withoutRefreshToken(user);
  return { id, user: shared.toStorageString() };
}

/** `user` without its refresh token (memory storage keeps that in the tab that holds it). */
export function withoutRefreshToken(user: User): User {
  return new User({ ...user, refresh_token: undefined });
}

/**
 * A user that arrived from another tab, whose profile claims are rebuilt from its ID token: a claim
 * the ID token states wins over what the message says (the message could be forged).
 */
export function receiveUser(
  storageString: string,
  claims: IdTokenClaims,
  keepRefreshToken: boolean,
): User {
  const user = knownExpiry(User.fromStorageString(storageString));
  const profile: Record<string, unknown> = { ...user.profile };
  for (const [name, value] of Object.entries(claims)) {
    if (name === 'sub' || name in profile) profile[name] = value;
  }
  return new User({
    ...user,
    refresh_token: keepRefreshToken ? user.refresh_token : undefined,
    profile: profile as User['profile'],
  });
}
