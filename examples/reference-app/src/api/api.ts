import { data } from 'react-router';
import { isAuthError } from '@oidc-kit/react';
import type { AuthFetch } from '@oidc-kit/react';
import { apiUrl } from '../config';

/** `error.data` of the route error response a failed API call throws (see `getJson`). */
export interface ApiFailure {
  code: 'api_error' | 'api_unreachable';
  /** A sentence for the user. */
  message: string;
}

export function isApiFailure(value: unknown): value is ApiFailure {
  const code = (value as Partial<ApiFailure> | null)?.code;
  return code === 'api_error' || code === 'api_unreachable';
}

/**
 * For route loaders: `GET {apiUrl}{path}` with the user's access token (`fetch` is the auth
 * client's: it renews the token once on a 401), read as JSON. A failure throws a route error
 * response carrying an `ApiFailure`, which the route's error page shows with "Try again".
 */
export async function getJson<T>(fetch: AuthFetch, path: string, request: Request): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl}${path}`, { signal: request.signal });
  } catch (error) {
    // Aborted (the user navigated on), or the auth client's own failure: as they are.
    if (request.signal.aborted || isAuthError(error)) throw error;
    throw data<ApiFailure>(
      {
        code: 'api_unreachable',
        message: 'The service could not be reached. Check your connection, then try again.',
      },
      { status: 503 },
    );
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error_description?: unknown };
    const detail =
      typeof body?.error_description === 'string' ? `: ${body.error_description}` : '.';
    throw data<ApiFailure>(
      { code: 'api_error', message: `The API answered ${response.status}${detail}` },
      { status: response.status },
    );
  }
  try {
    return (await response.json()) as T;
  } catch {
    throw data<ApiFailure>(
      { code: 'api_error', message: 'The API answered with something other than JSON.' },
      { status: 502 },
    );
  }
}
