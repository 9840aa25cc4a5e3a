import { data } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { requireAuth } from '@oidc-kit/react/react-router';
import { auth } from '../auth';
import { apiUrl } from '../config';

/** What GET /admin/stats answers. */
export interface AdminStats {
  distinctUsers: number;
  authenticatedRequests: number;
  uptimeSeconds: number;
}

const requireAdmin = requireAuth(auth, { roles: ['admin'] });

/** Lets admins through (403 for others, sign-in for signed-out users), then loads the stats. */
export async function adminLoader(args: LoaderFunctionArgs): Promise<AdminStats> {
  await requireAdmin(args);
  const response = await auth.fetch(`${apiUrl}/admin/stats`, { signal: args.request.signal });
  if (!response.ok)
    throw data(
      { code: 'api_error', message: `The API answered ${response.status}.` },
      { status: response.status },
    );
  return (await response.json()) as AdminStats;
}
