import type { LoaderFunctionArgs } from 'react-router';
import type { AccessRequirements, AuthContextValue } from '@oidc-kit/react';
import { requireAuth } from '@oidc-kit/react/react-router';
import { access } from './access';
import { getJson } from './api/api';
import type { AdminStats, Me } from './api/types';

/**
 * The routes' loaders. A guarded route is guarded here, and only here: the loader runs before the
 * page renders and before its data loads, so nothing is fetched for a user who may not see the
 * page (signed out: sign-in starts; without access: 403). `Layout` runs them again when the
 * signed-in user changes, so an open page is guarded anew.
 */
export function createLoaders(auth: AuthContextValue) {
  /** Lets users who meet `requirements` through, then loads `GET {apiUrl}{path}` with their token. */
  function guardedGet<T>(requirements: AccessRequirements, path: string) {
    const guard = requireAuth(auth, requirements);
    return async (args: LoaderFunctionArgs): Promise<T> => {
      await guard(args);
      return getJson<T>(auth.fetch, path, args.request);
    };
  }
  return {
    profile: requireAuth(auth, access.signedIn),
    dashboard: guardedGet<Me>(access.signedIn, '/me'),
    admin: guardedGet<AdminStats>(access.admin, '/admin/stats'),
  };
}
