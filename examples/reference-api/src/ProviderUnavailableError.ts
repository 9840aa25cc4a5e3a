import { errors } from 'jose';

/**
 * The provider's keys (or its discovery document) could not be fetched, so no token can be
 * verified just now. Answered with 503: the token may be perfectly good.
 */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
}

/**
 * Whether `error`, thrown while fetching keys to verify a token, means the provider could not be
 * reached or answered unusably, rather than that the token is bad.
 *
 * Besides {@link ProviderUnavailableError}, this recognises what jose's `createRemoteJWKSet`
 * throws when its fetch fails: `JWKSTimeout`; the plain `JOSEError` (code `ERR_JOSE_GENERIC`),
 * which jose throws only for a non-200 or non-JSON JWKS response; `JWKSInvalid` for a response
 * that is not a key set; and the `TypeError('fetch failed')` with which Node's fetch reports a
 * refused connection or DNS failure.
 */
export function isProviderUnavailable(error: unknown): boolean {
  if (error instanceof ProviderUnavailableError) return true;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  if (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC') return true;
  return error instanceof TypeError && error.message === 'fetch failed';
}
