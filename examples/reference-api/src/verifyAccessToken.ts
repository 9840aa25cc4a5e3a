import { errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions } from 'jose';
import { createMiddleware } from 'hono/factory';
import type { ApiEnv } from './apiEnv';
import { invalidToken, providerUnavailable } from './bearerErrors';
import { isProviderUnavailable } from './ProviderUnavailableError';
import { parsePublicOrigin, publicRequestUrl } from './publicRequestUrl';
import { invalidDPoPProof, invalidDPoPToken, useDPoPNonce } from './dpopErrors';
import { DPoPNonces } from './dpopNonces';
import { readAccessToken } from './readAccessToken';
import { refuseToken } from './refuseToken';
import { MemoryReplayCache } from './replayCache';
import type { ReplayCache } from './replayCache';
import { DPoPNonceRequired, DPoPProofError, verifyDPoPProof } from './verifyDPoPProof';

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
  /**
   * The scopes granted, space-separated: the `scope` claim as issued, else `scp` (Entra ID: a
   * string; Okta: an array); `''` when there is neither.
   */
  readonly scope: string;
  /** The thumbprint of the key the token is bound to (`cnf.jkt`, RFC 9449); null for a bearer token. */
  readonly jkt: string | null;
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

/**
 * The thumbprint a DPoP-bound token is bound to (`cnf.jkt`, RFC 9449 §6.1), or null without `cnf`.
 * Any other `cnf` is refused: taken as a bearer token, a token its provider meant to bind (to a
 * certificate, RFC 8705, say) would work for whoever copied it.
 */
function boundKey(cnf: unknown): string | null {
  if (cnf === undefined) return null;
  const jkt = typeof cnf === 'object' && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  if (typeof jkt !== 'string' || jkt === '') {
    throw new InvalidAccessTokenError(
      'The access token is bound to a key in a way this API cannot check: only cnf.jkt (DPoP) is supported.',
    );
  }
  return jkt;
}

function normalizeTyp(typ: unknown): string | undefined {
  return typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : undefined;
}

/**
 * `jwtVerify` with the provider's keys, trying each key that could have signed the token when
 * several can (no `kid` while the provider publishes two keys of its type, as during a rotation):
 * jose then throws `JWKSMultipleMatchingKeys`, which yields those keys.
 */
async function verifyWithAnyKey(token: string, keys: JWTVerifyGetKey, options: JWTVerifyOptions) {
  try {
    return await jwtVerify(token, keys, options);
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error) {
      try {
        return await jwtVerify(token, key, options);
      } catch (refused) {
        // Signed by another of the keys: try the next. Any other refusal is this key's verdict.
        if (!(refused instanceof errors.JWSSignatureVerificationFailed)) throw refused;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/**
 * Verifies an access token: signature by one of the provider's keys with an allowed algorithm,
 * `iss`, `aud`, `exp` (required) and `nbf`, a `typ` of `at+jwt` or `JWT`, a string `sub`, and no
 * `cnf` but a DPoP one (`cnf.jkt`). Checking the DPoP proof of a bound token is left to the caller
 * (see {@link requireAccessToken}).
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
  const { payload, protectedHeader } = await verifyWithAnyKey(token, options.keys, {
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
  const { name, roles } = payload;
  return {
    sub: payload.sub,
    name: typeof name === 'string' ? name : null,
    roles: Array.isArray(roles) ? roles.filter((role) => typeof role === 'string') : [],
    scope: grantedScope(payload),
    jkt: boundKey(payload.cnf),
    claims: payload,
  };
}

function grantedScope({ scope, scp }: JWTPayload): string {
  if (typeof scope === 'string') return scope;
  if (typeof scp === 'string') return scp;
  if (!Array.isArray(scp)) return '';
  // An element holding a space would grant two scopes once joined: it grants none.
  return scp.filter((one) => typeof one === 'string' && /^\S+$/.test(one)).join(' ');
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
  /**
   * The origin clients call this API at, e.g. `https://api.example.com`: a DPoP proof's `htu`
   * must be it with the request's path. The proxy's public origin when behind one.
   */
  readonly publicOrigin: string;
  /** Told why the provider's keys could not be fetched (the client only gets a 503). */
  readonly onProviderUnavailable?: (error: unknown) => void;
  /** Where the `jti` of DPoP proofs are remembered. Default: a {@link MemoryReplayCache} on `now`. */
  readonly replayCache?: ReplayCache;
  /** The clock for DPoP proofs' `iat`, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * The nonces handed to DPoP clients whose proof is out of the `iat` window (a clock off).
   * Default: a {@link DPoPNonces} of this process; share its secret across instances.
   */
  readonly dpopNonces?: DPoPNonces;
}

/**
 * Hono middleware: lets a request through only with a valid access token (see
 * {@link verifyAccessToken}), and sets `c.var.accessToken`. A DPoP-bound token (`cnf.jkt`) must
 * come as `Authorization: DPoP` with a `DPoP` proof for this request at `publicOrigin` (see
 * {@link verifyDPoPProof}); a plain one as `Authorization: Bearer`.
 *
 * Answers, without calling the next handler: 401 `invalid_token` for a missing, malformed or
 * refused token (challenged in the scheme the request used; both when it used neither), or a
 * bound token sent as a bearer token; 401 `invalid_dpop_proof` for a missing or refused proof; 401 `use_dpop_nonce` with a `DPoP-Nonce` for a proof out of the `iat` window
 * or with a stale nonce; 503 when the provider's keys cannot be fetched. Any other error is rethrown.
 */
export function requireAccessToken(options: RequireAccessTokenOptions) {
  const publicOrigin = parsePublicOrigin(options.publicOrigin);
  // On the proofs' clock: entries expire by it, and on another clock a replay could look expired.
  const replayCache = options.replayCache ?? new MemoryReplayCache(undefined, options.now);
  const nonces = options.dpopNonces ?? new DPoPNonces(undefined, options.now);
  return createMiddleware<ApiEnv>(async (c, next) => {
    const url = new URL(c.req.url);
    const found = readAccessToken(c.req.header('authorization'), url);
    if (!found.ok) return refuseToken(c, found.scheme, found.description);
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
        return refuseToken(c, found.scheme, describe(error));
      }
      throw error;
    }
    const { jkt } = verified;
    // A token in the wrong scheme is challenged in the scheme it needs, so the client knows which.
    if (jkt === null && found.scheme === 'DPoP') {
      return invalidToken(c, 'The access token is not DPoP-bound: send it with the Bearer scheme.');
    }
    if (jkt !== null) {
      if (found.scheme !== 'DPoP') {
        return invalidDPoPToken(
          c,
          'The access token is DPoP-bound: send it with the DPoP scheme and a proof.',
        );
      }
      const proof = c.req.header('dpop');
      // One proof only: two headers arrive joined by a comma, which no compact JWS contains.
      if (proof === undefined || proof === '' || proof.includes(',')) {
        return invalidDPoPProof(c, 'Send exactly one DPoP proof with a DPoP-bound token.');
      }
      try {
        await verifyDPoPProof(proof, {
          method: c.req.method,
          url: publicRequestUrl(publicOrigin, url),
          accessToken: found.token,
          jkt,
          replayCache,
          nonces,
          ...(options.now === undefined ? {} : { now: options.now }),
        });
      } catch (error) {
        if (error instanceof DPoPNonceRequired) {
          return useDPoPNonce(c, error.message, nonces.issue());
        }
        if (error instanceof DPoPProofError) return invalidDPoPProof(c, error.message);
        throw error;
      }
    }
    c.set('accessToken', verified);
    await next();
  });
}
