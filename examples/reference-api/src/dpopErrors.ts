import type { Context } from 'hono';
import type { ErrorBody } from './bearerErrors';
import { dpopAlgorithms } from './verifyDPoPProof';

// As in bearerErrors.ts, every description is a fixed sentence written in this package.
function refuse(
  c: Context,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error, error_description: description };
  return c.json(body, 401, {
    'WWW-Authenticate': `DPoP error="${error}", error_description="${description}", algs="${dpopAlgorithms.join(' ')}"`,
    ...headers,
  });
}

/**
 * 401 with `WWW-Authenticate: DPoP error="invalid_dpop_proof"` (RFC 9449 §7.1): a DPoP-bound token
 * came without a valid proof for this request.
 */
export function invalidDPoPProof(c: Context, description: string): Response {
  return refuse(c, 'invalid_dpop_proof', description);
}

/** 401 with `WWW-Authenticate: DPoP error="invalid_token"`: a bound token sent as a bearer token. */
export function dpopBoundToken(c: Context, description: string): Response {
  return refuse(c, 'invalid_token', description);
}

/**
 * 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"` and a `DPoP-Nonce` header (RFC 9449
 * §9): the proof must carry this nonce; the client sends the request again with it.
 */
export function useDPoPNonce(c: Context, description: string, nonce: string): Response {
  return refuse(c, 'use_dpop_nonce', description, { 'DPoP-Nonce': nonce });
}
