import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { challengeAttributes } from './bearerErrors';
import type { ErrorBody } from './bearerErrors';
import { dpopAlgorithms } from './verifyDPoPProof';

const algs = `algs="${dpopAlgorithms.join(' ')}"`;

/** The bare `DPoP` challenge, offered to a request without credentials (RFC 9449 §7.1). */
export const dpopOffer = `DPoP ${algs}`;

/**
 * A `DPoP` challenge with an error (RFC 9449 §7.1): {@link challengeAttributes}, as in a `Bearer`
 * one, and the proof algorithms accepted.
 */
export function dpopChallenge(error: string, description: string, scope?: string): string {
  return `DPoP ${challengeAttributes(error, description, scope)}, ${algs}`;
}

function refuse(
  c: Context,
  status: ContentfulStatusCode,
  error: string,
  description: string,
  { scope, headers = {} }: { scope?: string; headers?: Record<string, string> } = {},
): Response {
  const body: ErrorBody = { error, error_description: description };
  return c.json(body, status, {
    'WWW-Authenticate': dpopChallenge(error, description, scope),
    ...headers,
  });
}

/**
 * 401 with `WWW-Authenticate: DPoP error="invalid_dpop_proof"` (RFC 9449 §7.1): a DPoP-bound token
 * came without a valid proof for this request.
 */
export function invalidDPoPProof(c: Context, description: string): Response {
  return refuse(c, 401, 'invalid_dpop_proof', description);
}

/**
 * 401 with `WWW-Authenticate: DPoP error="invalid_token"`: a token sent with the DPoP scheme that
 * is refused, or a bound token sent as a bearer token.
 */
export function invalidDPoPToken(c: Context, description: string): Response {
  return refuse(c, 401, 'invalid_token', description);
}

/**
 * 403 with `WWW-Authenticate: DPoP error="insufficient_scope"`: a good bound token, not enough
 * rights. `scope`, the scope the request needs, goes into the challenge (RFC 6750 §3).
 */
export function dpopInsufficientScope(c: Context, description: string, scope?: string): Response {
  return refuse(c, 403, 'insufficient_scope', description, { scope });
}

/**
 * 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"` and a `DPoP-Nonce` header (RFC 9449
 * §9): the proof must carry this nonce; the client sends the request again with it.
 */
export function useDPoPNonce(c: Context, description: string, nonce: string): Response {
  return refuse(c, 401, 'use_dpop_nonce', description, { headers: { 'DPoP-Nonce': nonce } });
}
