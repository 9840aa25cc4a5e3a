import type { Context } from 'hono';
import type { ApiEnv } from './apiEnv';
import { insufficientScope } from './bearerErrors';
import { dpopInsufficientScope } from './dpopErrors';

/**
 * 403 `insufficient_scope` for a request whose token is good but grants too little, challenged in
 * the token's scheme: `DPoP` for a DPoP-bound token, else `Bearer`. `scope`, when the request
 * needs one, is named in the challenge (RFC 6750 §3); it must be a checked scope-token.
 */
export function refuseInsufficientScope(
  c: Context<ApiEnv>,
  description: string,
  scope?: string,
): Response {
  // requireAccessToken took a bound token only with the DPoP scheme.
  return c.var.accessToken.jkt === null
    ? insufficientScope(c, description, scope)
    : dpopInsufficientScope(c, description, scope);
}
