import type { User } from 'oidc-client-ts';
import type { AuthSnapshot } from './authState';
import { isUnderWay } from './authState';
import type { RoleReader } from './roles';
import { warnRolesElsewhere } from './warnRolesElsewhere';

/** What a user must have to see something. All given requirements must hold. */
export interface AccessRequirements {
  /** Any one of these roles. */
  roles?: readonly string[];
  /** Every one of these scopes, granted to the access token. */
  scopes?: readonly string[];
  /** Any further condition on the user. */
  when?: (user: User) => boolean;
}

/** Whether `user` meets `requirements`: any of `roles`, all of `scopes`, and `when`. */
export function checkAccess(
  user: User,
  requirements: AccessRequirements,
  readRoles: RoleReader,
): boolean {
  const { roles, scopes, when } = requirements;
  if (roles !== undefined && roles.length > 0) {
    const held = new Set(readRoles(user));
    if (!roles.some((role) => held.has(role))) {
      if (process.env.NODE_ENV !== 'production' && held.size === 0) warnRolesElsewhere(user, roles);
      return false;
    }
  }
  if (scopes !== undefined && scopes.length > 0) {
    const granted = new Set(user.scopes);
    if (!scopes.every((scope) => granted.has(scope))) return false;
  }
  return when === undefined || when(user);
}

/** Where a user stands against some requirements: what a guard shows. */
export type Access = 'pending' | 'signed-out' | 'allowed' | 'denied';

/** The {@link Access} a snapshot gives, read with `readRoles`. */
export function accessOf(
  snapshot: AuthSnapshot,
  requirements: AccessRequirements,
  readRoles: RoleReader,
): Access {
  const { status, user } = snapshot;
  if (isUnderWay(status)) return 'pending';
  if (user === null) return 'signed-out';
  return checkAccess(user, requirements, readRoles) ? 'allowed' : 'denied';
}
