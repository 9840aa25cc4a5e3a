import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from './apiEnv';
import { refuseInsufficientScope } from './refuseInsufficientScope';

// A scope-token (RFC 6749 §3.3): printable ASCII but space, `"` and `\`, so it is safe in the
// challenge's quoted `scope` attribute.
const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Hono middleware, after `requireAccessToken`: lets a request through only if its token's `scope`
 * claim grants `scope`, and otherwise answers 403 `insufficient_scope` naming it
 * (`WWW-Authenticate: Bearer error="insufficient_scope", …, scope="orders:read"`, or `DPoP …` for
 * a DPoP-bound token) without calling the next handler.
 *
 * @param scope One scope-token (RFC 6749 §3.3); chain `requireScope` for several.
 * @throws {TypeError} when `scope` is not one scope-token, as the API is built.
 * @example
 * app.get('/orders', requireScope('orders:read'), orders);
 */
export function requireScope(scope: string) {
  if (!scopeToken.test(scope)) {
    throw new TypeError(
      `requireScope: unusable scope ${JSON.stringify(scope)}: one scope-token (RFC 6749 §3.3), e.g. 'orders:read'; chain requireScope for several.`,
    );
  }
  return createMiddleware<ApiEnv>(async (c, next) => {
    const granted: unknown = c.var.accessToken.scope;
    // Space-separated (RFC 9068 §2.2.3, RFC 8693 §4.2), matched as whole tokens: `read` is not
    // granted by `readonly`. A claim of another type grants nothing.
    if (typeof granted !== 'string' || !granted.split(' ').includes(scope)) {
      return refuseInsufficientScope(c, `The ${scope} scope is required.`, scope);
    }
    await next();
  });
}
