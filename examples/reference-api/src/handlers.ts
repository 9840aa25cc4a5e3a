import type { Context } from 'hono';
import type { ApiEnv } from './apiEnv';
import type { MeBody, UsageSnapshot } from './types';

/** `GET /health`: answers without a token, so a process manager can tell the API is up. */
export function health(c: Context): Response {
  return c.json({ status: 'ok' as const });
}

/** `GET /me`: who the verified token says the caller is. */
export function me(c: Context<ApiEnv>): Response {
  const { sub, name, roles, scope } = c.var.accessToken;
  const body: MeBody = { sub, name, roles, scope };
  return c.json(body);
}

/** `GET /admin/stats`: this API's own usage figures, for callers with the `admin` role. */
export function adminStats(c: Context<ApiEnv>): Response {
  const body: UsageSnapshot = c.var.usage.snapshot();
  return c.json(body);
}
