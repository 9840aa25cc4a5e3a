import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { JWTVerifyGetKey } from 'jose';
import type { ApiEnv } from './apiEnv';
import type { ErrorBody } from './bearerErrors';
import { endpointMethods } from './endpointRoutes';
import { adminStats, health, me } from './handlers';
import { createProviderKeys } from './providerKeys';
import type { DPoPNonces } from './dpopNonces';
import type { ReplayCache } from './replayCache';
import { requireRole } from './requireRole';
import { Usage } from './usage';
import { requireAccessToken } from './verifyAccessToken';

/** Where the API reports what a client's response does not say. Default: `console`. */
export interface ApiLogger {
  warn(message: string): void;
  error(message: string, error: unknown): void;
}

/** Options for {@link createApi}. */
export interface CreateApiOptions {
  /** The provider's issuer; tokens must carry exactly this `iss`. */
  readonly issuer: string;
  /** This API's identifier at the provider; tokens must carry it in `aud`. */
  readonly audience: string;
  /**
   * The browser origin allowed to call the API, e.g. `http://localhost:5173`, or several (the app
   * served at more than one origin).
   */
  readonly appOrigin: string | readonly string[];
  /**
   * The origin clients call this API at, e.g. `http://localhost:4001`, or the proxy's public one
   * (`https://api.example.com`): DPoP proofs must name it with the request's path (`htu`).
   */
  readonly publicOrigin: string;
  /**
   * The provider's keys. Default: jose's `createRemoteJWKSet` on `jwksUri`, or on the `jwks_uri`
   * of the issuer's discovery document, fetched on the first request that needs it.
   */
  readonly jwks?: JWTVerifyGetKey;
  /** The provider's JWKS URL, when it should not be discovered. Ignored when `jwks` is given. */
  readonly jwksUri?: string | URL | undefined;
  /** Milliseconds before a discovery or JWKS request is given up. Default 5000. */
  readonly jwksTimeoutMs?: number;
  /** Seconds of clock difference tolerated for `exp` and `nbf`. Default 5. */
  readonly clockToleranceSeconds?: number;
  /** The clock behind `uptimeSeconds`, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** Where DPoP proofs' `jti` are remembered. Default: in memory (one instance). */
  readonly replayCache?: ReplayCache;
  /** The nonces for DPoP clients whose clock is off. Default: one secret for this process. */
  readonly dpopNonces?: DPoPNonces;
  readonly logger?: ApiLogger;
}

function causes(error: unknown): string {
  const parts: string[] = [];
  for (let e = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.length > 0 ? parts.join(': ') : String(error);
}

/**
 * Builds the reference API as a Hono app: `GET /health` (open), `GET /me` (any valid token) and
 * `GET /admin/stats` (role `admin`), with CORS for `appOrigin` only.
 *
 * Pure: nothing is fetched or listened on until a request arrives, so tests call `app.request()`
 * with a local JWKS (`createLocalJWKSet`) and no network.
 *
 * @throws {TypeError} when `publicOrigin` is not an http(s) origin.
 * @example
 * const app = createApi({
 *   issuer: 'http://localhost:4000',
 *   audience: 'http://localhost:4001',
 *   appOrigin: 'http://localhost:5173',
 *   publicOrigin: 'http://localhost:4001',
 * });
 * const response = await app.request('/health');
 */
export function createApi(options: CreateApiOptions): Hono<ApiEnv> {
  const logger = options.logger ?? console;
  const keys =
    options.jwks ??
    createProviderKeys({
      issuer: options.issuer,
      jwksUri: options.jwksUri,
      ...(options.jwksTimeoutMs === undefined ? {} : { timeoutMs: options.jwksTimeoutMs }),
    });
  const usage = new Usage(options.now);

  const app = new Hono<ApiEnv>();
  app.use(
    '*',
    cors({
      origin: typeof options.appOrigin === 'string' ? options.appOrigin : [...options.appOrigin],
      // Exactly the methods the endpoints answer, read at each preflight: a POST endpoint added
      // below is callable from the app at once, where a fixed list would make the browser refuse
      // the call before sending it (the app sees a network error, not a status).
      allowMethods: () => endpointMethods(app),
      allowHeaders: ['Authorization', 'Content-Type', 'DPoP'],
      // So the app can read why a call was refused, a nonce it is asked to use, and how long to
      // wait after a 503: none of them is a CORS-safelisted response header.
      exposeHeaders: ['WWW-Authenticate', 'DPoP-Nonce', 'Retry-After'],
      maxAge: 600,
    }),
  );
  app.get('/health', health);

  const authenticated = requireAccessToken({
    issuer: options.issuer,
    audience: options.audience,
    publicOrigin: options.publicOrigin,
    keys,
    ...(options.replayCache === undefined ? {} : { replayCache: options.replayCache }),
    ...(options.dpopNonces === undefined ? {} : { dpopNonces: options.dpopNonces }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.clockToleranceSeconds === undefined
      ? {}
      : { clockToleranceSeconds: options.clockToleranceSeconds }),
    onProviderUnavailable: (error) =>
      logger.warn(
        `reference API: cannot verify tokens, no keys from the provider: ${causes(error)}`,
      ),
  });
  // Every path but /health is behind the token check, unknown ones included: an unauthenticated
  // caller learns nothing about which routes exist.
  app.use('*', async (c, next) => {
    if (c.req.path === '/health') return next();
    return authenticated(c, next);
  });
  app.use('*', async (c, next) => {
    usage.record(c.var.accessToken.sub);
    c.set('usage', usage);
    await next();
  });

  app.get('/me', me);
  app.get('/admin/stats', requireRole('admin'), adminStats);

  app.notFound((c) =>
    c.json<ErrorBody>({ error: 'not_found', error_description: 'No such endpoint.' }, 404),
  );
  app.onError((error, c) => {
    logger.error(`reference API: ${c.req.method} ${c.req.path} failed`, error);
    return c.json<ErrorBody>(
      { error: 'server_error', error_description: 'The API failed to answer.' },
      500,
    );
  });
  return app;
}
