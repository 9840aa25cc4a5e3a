// Test helpers for createApi's suites (createApi*.test.ts), never imported by the server.
import type { Hono } from 'hono';
import { beforeEach, vi } from 'vitest';
import type { ApiEnv } from './apiEnv';
import { createApi } from './createApi';
import { endpointRoutes } from './endpointRoutes';
import type { ApiLogger, CreateApiOptions } from './createApi';
import {
  appOrigin,
  audience,
  issuer,
  localKeys,
  publicOrigin,
  recordingLogger,
} from './testSupport';
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

/**
 * A createApi suite's shared setup: before each test, the handler spies cleared (the suite mocks
 * `./handlers` with `{ spy: true }`) and a fresh logger. `api()` is {@link createTestApi} with
 * `key` and that logger; read `logger` inside a test.
 */
export function setUpTestApi(key: TestKey) {
  let logger = recordingLogger();
  beforeEach(() => {
    vi.clearAllMocks();
    logger = recordingLogger();
  });
  return {
    get logger() {
      return logger;
    },
    api: (options: Partial<CreateApiOptions> = {}) => createTestApi(key, logger, options),
  };
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
  const paths = endpointRoutes(app)
    .filter((route) => route.path !== '/health')
    .map((route) => route.path);
  return [...new Set(paths)];
}
