import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from './apiEnv';
import { refuseInsufficientScope } from './refuseInsufficientScope';

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
    if (!c.var.accessToken.roles.includes(role)) {
      return refuseInsufficientScope(c, `The ${role} role is required.`);
    }
    await next();
  });
}
