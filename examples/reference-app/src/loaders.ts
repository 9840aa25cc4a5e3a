import type { LoaderFunctionArgs } from 'react-router';
import type { AuthContextValue } from '@oidc-kit/react';
import { requireAuth } from '@oidc-kit/react/react-router';
import { getJson } from './api/api';
import type { AdminStats, Me } from './api/types';

/**
 * The routes' loaders. A guarded route is guarded here, and only here: the loader runs before the
 * page renders and before its data loads, so nothing is fetched for a user who may not see the
 * page (signed out: sign-in starts; without the role: 403). `Layout` runs them again when the
 * signed-in user changes, so an open page is guarded anew.
 */
export function createLoaders(auth: AuthContextValue) {
  const signedIn = requireAuth(auth);
  const admin = requireAuth(auth, { roles: ['admin'] });
  return {
    profile: signedIn,
    dashboard: async (args: LoaderFunctionArgs) => {
      await signedIn(args);
      return getJson<Me>(auth.fetch, '/me', args.request);
    },
    admin: async (args: LoaderFunctionArgs) => {
      await admin(args);
      return getJson<AdminStats>(auth.fetch, '/admin/stats', args.request);
    },
  };
}
