import type { Context } from 'hono';

/** The JSON body of every error this API answers with. */
export interface ErrorBody {
  readonly error: string;
  readonly error_description: string;
}

/**
 * The attributes of a challenge with an error (RFC 6750 §3), shared by the `Bearer` and `DPoP`
 * schemes. `description` is a fixed sentence written in this package, and `scope` (the scope the
 * request needs, for `insufficient_scope`) a checked scope-token: both go into quoted header
 * values, so they must never carry a quote, a backslash or anything from the request.
 */
export function challengeAttributes(error: string, description: string, scope?: string): string {
  const attributes = `error="${error}", error_description="${description}"`;
  return scope === undefined ? attributes : `${attributes}, scope="${scope}"`;
}

/** A `Bearer` challenge (RFC 6750 §3), with {@link challengeAttributes}. */
export function bearerChallenge(error: string, description: string, scope?: string): string {
  return `Bearer ${challengeAttributes(error, description, scope)}`;
}

/**
 * 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1): no usable token.
 * Sent for a missing token too, where RFC 6750 §3.1 recommends a bare `Bearer` (no error code), so
 * clients see one shape.
 */
export function invalidToken(c: Context, description: string): Response {
  const body: ErrorBody = { error: 'invalid_token', error_description: description };
  return c.json(body, 401, { 'WWW-Authenticate': bearerChallenge('invalid_token', description) });
}

/**
 * 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`: a good token, not enough rights.
 * `scope`, the scope the request needs, goes into the challenge (RFC 6750 §3).
 */
export function insufficientScope(c: Context, description: string, scope?: string): Response {
  const body: ErrorBody = { error: 'insufficient_scope', error_description: description };
  return c.json(body, 403, {
    'WWW-Authenticate': bearerChallenge('insufficient_scope', description, scope),
  });
}

/** 503: the provider's keys could not be fetched, so the token could be neither trusted nor refused. */
export function providerUnavailable(c: Context): Response {
  const body: ErrorBody = {
    error: 'provider_unavailable',
    error_description: 'The identity provider could not be reached to verify the token. Try again.',
  };
  return c.json(body, 503, { 'Retry-After': '5' });
}
