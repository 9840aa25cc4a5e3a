import { useCallback, useEffect, useState } from 'react';
import { useAuthFetch } from '@oidc-kit/react';
import { apiUrl } from './config';

/** The state of one API call. */
export type ApiResult<T> =
  | { state: 'loading' }
  | { state: 'done'; data: T; status: number }
  | { state: 'failed'; status: number | null; message: string };

/**
 * Calls `GET {VITE_API_URL}{path}` with the user's access token (renewed once on a 401) and
 * re-calls it on `reload()`. Aborts the call when the component unmounts.
 */
export function useApi<T>(path: string): {
  result: ApiResult<T>;
  calls: number;
  reload: () => void;
} {
  const authFetch = useAuthFetch();
  const [result, setResult] = useState<ApiResult<T>>({ state: 'loading' });
  const [calls, setCalls] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    authFetch(`${apiUrl}${path}`, { signal: controller.signal })
      .then(async (response) => {
        const body = (await response.json().catch(() => null)) as unknown;
        if (response.ok) setResult({ state: 'done', data: body as T, status: response.status });
        else {
          const message = (body as { error_description?: string } | null)?.error_description;
          setResult({
            state: 'failed',
            status: response.status,
            message: message ?? response.statusText,
          });
        }
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setResult({
          state: 'failed',
          status: null,
          message: `The API could not be reached (${String(error)}).`,
        });
      });
    return () => controller.abort();
  }, [authFetch, path, calls]);

  const reload = useCallback(() => setCalls((count) => count + 1), []);
  return { result, calls: calls + 1, reload };
}
