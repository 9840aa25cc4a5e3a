import { errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from './apiEnv';
import { invalidToken, providerUnavailable } from './bearerErrors';
import { isProviderUnavailable } from './ProviderUnavailableError';
import { readBearerToken } from './readBearerToken';

/**
 * The only signature algorithms accepted: asymmetric ones, so that holding the verification key
 * (public, in the JWKS) never allows minting tokens. Never `none`, never HS*.
 */
export const accessTokenAlgorithms: readonly string[] = Object.freeze([
  'RS256',
  'PS256',
  'ES256',
  'EdDSA',
]);

// `typ` values accepted, as jose normalises them (lower case, no `application/`): RFC 9068's
// `at+jwt`, and the plain `JWT` most providers still put on access tokens.
const accessTokenTypes = new Set(['at+jwt', 'jwt']);

/** What a verified access token says about its caller. */
export interface VerifiedAccessToken {
  readonly sub: string;
  /** The `name` claim, or null: many providers leave it out of access tokens. */
  readonly name: string | null;
  /** The `roles` claim's strings; `[]` when there is no such claim. */
  readonly roles: readonly string[];
  /** The `scope` claim, space-separated as issued; `''` when there is none. */
  readonly scope: string;
  /** Every claim of the token, as verified. */
  readonly claims: JWTPayload;
}

/** Options for {@link verifyAccessToken} and {@link requireAccessToken}. */
export interface VerifyAccessTokenOptions {
  /** The `iss` tokens must carry, compared as an exact string. */
  readonly issuer: string;
  /** The `aud` tokens must carry (or include): this API's identifier. */
  readonly audience: string;
  /** Where the provider's public keys come from (jose's remote or local JWKS). */
  readonly keys: JWTVerifyGetKey;
  /** Seconds of clock difference tolerated for `exp` and `nbf`. Default 5. */
  readonly clockToleranceSeconds?: number;
}

/** A token that jose verified but that this API still refuses (wrong `typ`, unusable `sub`). */
export class InvalidAccessTokenError extends Error {
  override readonly name = 'InvalidAccessTokenError';
}

function normalizeTyp(typ: unknown): string | undefined {
  return typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : undefined;
}

/**
 * Verifies an access token: signature by one of the provider's keys with an allowed algorithm,
 * `iss`, `aud`, `exp` (required) and `nbf`, a `typ` of `at+jwt` or `JWT`, and a string `sub`.
 *
 * @throws a jose `JOSEError` or {@link InvalidAccessTokenError} when the token is refused, or
 * whatever `options.keys` throws when the keys cannot be fetched.
 * @example
 * const { sub, roles } = await verifyAccessToken(token, { issuer, audience, keys });
 */
export async function verifyAccessToken(
  token: string,
  options: VerifyAccessTokenOptions,
): Promise<VerifiedAccessToken> {
  const { payload, protectedHeader } = await jwtVerify(token, options.keys, {
    issuer: options.issuer,
    audience: options.audience,
    algorithms: [...accessTokenAlgorithms],
    clockTolerance: options.clockToleranceSeconds ?? 5,
    // jose checks `exp` only when present: a token without one would never expire.
    requiredClaims: ['exp', 'sub'],
  });
  if (!accessTokenTypes.has(normalizeTyp(protectedHeader.typ) ?? '')) {
    throw new InvalidAccessTokenError('The access token has an unexpected typ.');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') {
    throw new InvalidAccessTokenError('The access token has no usable sub.');
  }
  const { name, roles, scope } = payload;
  return {
    sub: payload.sub,
    name: typeof name === 'string' ? name : null,
    roles: Array.isArray(roles) ? roles.filter((role) => typeof role === 'string') : [],
    scope: typeof scope === 'string' ? scope : '',
    claims: payload,
  };
}

function describe(error: Error): string {
  if (error instanceof InvalidAccessTokenError) return error.message;
  if (error instanceof errors.JWTExpired) return 'The access token has expired.';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return 'The access token was issued by another issuer.';
      case 'aud':
        return 'The access token is not for this API.';
      case 'nbf':
        return 'The access token is not valid yet.';
      default:
        return 'The access token is missing a required claim or has an invalid one.';
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'The access token algorithm is not allowed.';
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return 'The access token signature could not be verified.';
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return 'The access token is malformed.';
  }
  return 'The access token is invalid.';
}

/** Options for {@link requireAccessToken}. */
export interface RequireAccessTokenOptions extends VerifyAccessTokenOptions {
  /** Told why the provider's keys could not be fetched (the client only gets a 503). */
  readonly onProviderUnavailable?: (error: unknown) => void;
}

/**
 * Hono middleware: lets a request through only with a valid `Authorization: Bearer` access token
 * (see {@link verifyAccessToken}), and sets `c.var.accessToken`.
 *
 * Answers, without calling the next handler: 401 `invalid_token` for a missing, malformed or
 * refused token; 503 when the provider's keys cannot be fetched. Any other error is rethrown.
 */
export function requireAccessToken(options: RequireAccessTokenOptions) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const found = readBearerToken(c.req.header('authorization'), new URL(c.req.url));
    if (!found.ok) return invalidToken(c, found.description);
    let verified: VerifiedAccessToken;
    try {
      verified = await verifyAccessToken(found.token, options);
    } catch (error) {
      // Before the JOSEError check: jose's JWKSTimeout is a JOSEError too.
      if (isProviderUnavailable(error)) {
        options.onProviderUnavailable?.(error);
        return providerUnavailable(c);
      }
      if (error instanceof errors.JOSEError || error instanceof InvalidAccessTokenError) {
        return invalidToken(c, describe(error));
      }
      throw error;
    }
    c.set('accessToken', verified);
    await next();
  });
}
