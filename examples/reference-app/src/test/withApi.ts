import { vi } from 'vitest';
import { createMockAuthClient } from '@oidc-kit/react/testing';
import type { MockAuthOptions } from '@oidc-kit/react/testing';

/** The API's origin in tests: the default of `VITE_API_URL`. */
export const apiOrigin = 'http://localhost:4001';

/**
 * A mock client whose authenticated fetch reaches `api` for the API's origin: `api` gets each
 * request's URL and answers it. `fetch` is the spy, to count calls.
 */
export function withApi(options: MockAuthOptions, api: (url: string) => Promise<Response>) {
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    api(input instanceof Request ? input.url : String(input)),
  );
  return { fetch, auth: createMockAuthClient({ ...options, fetch, apiOrigins: [apiOrigin] }) };
}
