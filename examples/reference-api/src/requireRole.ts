import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from './apiEnv';
import { insufficientScope } from './bearerErrors';
import { dpopInsufficientScope } from './dpopErrors';

/**
 * Hono middleware, after `requireAccessToken`: lets a request through only if its token's `roles`
 * include `role`, and otherwise answers 403 `insufficient_scope` without calling the next handler,
 * challenged in the token's scheme: `DPoP` for a DPoP-bound token, else `Bearer`.
 *
 * @param role A role name made of letters, digits, `-`, `_` and `.` (it goes into a header).
 * @example
 * app.get('/admin/stats', requireRole('admin'), adminStats);
 */
export function requireRole(role: string) {
  if (!/^[\w.-]+$/.test(role)) throw new TypeError(`requireRole: unusable role name ${role}`);
  return createMiddleware<ApiEnv>(async (c, next) => {
    const { roles, jkt } = c.var.accessToken;
    if (!roles.includes(role)) {
      const description = `The ${role} role is required.`;
      // requireAccessToken took a bound token only with the DPoP scheme.
      return jkt === null
        ? insufficientScope(c, description)
        : dpopInsufficientScope(c, description);
    }
    await next();
  });
}
