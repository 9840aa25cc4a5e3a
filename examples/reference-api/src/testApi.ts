// Test helpers for createApi's suites (createApi*.test.ts), never imported by the server.
import type { Hono } from 'hono';
import type { ApiEnv } from './apiEnv';
import { createApi } from './createApi';
import type { ApiLogger, CreateApiOptions } from './createApi';
import { appOrigin, audience, issuer, localKeys, publicOrigin } from './testSupport';
import type { TestKey } from './testSupport';

/**
 * The API as the tests call it: the test issuer, audience and origins, a local JWKS publishing
 * `key` (no network), and `logger`; `options` replaces any of them.
 */
export function createTestApi(
  key: TestKey,
  logger: ApiLogger,
  options: Partial<CreateApiOptions> = {},
): Hono<ApiEnv> {
  return createApi({
    issuer,
    audience,
    appOrigin,
    publicOrigin,
    jwks: localKeys(key),
    logger,
    ...options,
  });
}

/** The `Authorization` header that sends `token` as a bearer token. */
export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** A `Bearer error="invalid_token"` challenge with a description that is safe in a header. */
export const invalidTokenChallenge = /^Bearer error="invalid_token", error_description="[^"\\]+"$/;

/**
 * The path of every endpoint behind the token check (all but `/health`), read from the app's
 * routes: a refusal suite that walks them covers an endpoint as soon as it is added.
 */
export function protectedPaths(): string[] {
  const app = createApi({ issuer, audience, appOrigin, publicOrigin });
  const paths = app.routes
    .filter((route) => route.method !== 'ALL' && route.path !== '/health')
    .map((route) => route.path);
  return [...new Set(paths)];
}
