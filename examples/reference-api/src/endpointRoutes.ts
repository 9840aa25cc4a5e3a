import type { Hono } from 'hono';
import { inspectRoutes } from 'hono/dev';
import { METHODS } from 'hono/router';
import type { ApiEnv } from './apiEnv';

/** One endpoint of the app: a route whose handler answers, not middleware that calls `next`. */
export interface EndpointRoute {
  /** `GET`, `POST`, …, or `ALL` for an endpoint added with `app.all()`. */
  readonly method: string;
  readonly path: string;
}

/**
 * The app's endpoints. Middleware is registered for `ALL` as `app.all()` endpoints are; they are
 * told apart the way Hono's own `inspectRoutes` does, by the handler's arity (`(c, next)`).
 */
export function endpointRoutes(app: Hono<ApiEnv>): EndpointRoute[] {
  return inspectRoutes(app)
    .filter((route) => !route.isMiddleware)
    .map(({ method, path }) => ({ method, path }));
}

/**
 * The methods the app's endpoints answer, for CORS: an `ALL` endpoint answers each method Hono
 * routes by name. OPTIONS is left out, as the preflight itself is answered by the CORS middleware.
 */
export function endpointMethods(app: Hono<ApiEnv>): string[] {
  const everyMethod = METHODS.map((method) => method.toUpperCase()).filter((m) => m !== 'OPTIONS');
  const methods = endpointRoutes(app).flatMap((route) =>
    route.method === 'ALL' ? everyMethod : [route.method],
  );
  return [...new Set(methods)];
}
