import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from './apiEnv';
import { insufficientScope } from './bearerErrors';

/**
 * Hono middleware, after `requireAccessToken`: lets a request through only if its token's `roles`
 * include `role`, and otherwise answers 403 with `WWW-Authenticate: Bearer
 * error="insufficient_scope"` without calling the next handler.
 *
 * @param role A role name made of letters, digits, `-`, `_` and `.` (it goes into a header).
 * @example
 * app.get('/admin/stats', requireRole('admin'), adminStats);
 */
export function requireRole(role: string) {
  if (!/^[\w.-]+$/.test(role)) throw new TypeError(`requireRole: unusable role name ${role}`);
  return createMiddleware<ApiEnv>(async (c, next) => {
    if (!c.var.accessToken.roles.includes(role)) {
      return insufficientScope(c, `The ${role} role is required.`);
    }
    await next();
  });
}
