import type { ReactNode } from 'react';
import type { AccessRequirements } from '../core/checkAccess';
import { useAccessFor } from '../hooks/useAccess';

/** Props of {@link Authorized}. */
export interface AuthorizedProps extends AccessRequirements {
  children?: ReactNode;
  /** Shown instead when the user is signed out or does not meet the requirements. */
  fallback?: ReactNode;
}

/**
 * Shows its children only to a signed-in user with any of `roles`, all of `scopes` and `when`;
 * otherwise `fallback`. It never starts a sign-in.
 *
 * @example
 * <Authorized roles={['admin']}><Link to="/admin">Admin</Link></Authorized>
 */
export function Authorized({
  children,
  fallback = null,
  roles,
  scopes,
  when,
}: AuthorizedProps): ReactNode {
  const access = useAccessFor('Authorized', { roles, scopes, when });
  if (access === 'pending') return null;
  return access === 'allowed' ? children : fallback;
}
