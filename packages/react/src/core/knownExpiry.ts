import type { User } from 'oidc-client-ts';

/**
 * `user`, its `expires_at` unset when it is no time: an `expires_in` past a number's range makes
 * it Infinity, stored as null, which would read as long expired. Its expiry is then unknown, as
 * when the provider gives no `expires_in`: the token is used until an API refuses it.
 */
export function knownExpiry(user: User): User {
  if (!Number.isFinite(user.expires_at)) user.expires_at = undefined;
  return user;
}
