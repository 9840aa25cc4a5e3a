import { base64url, calculateJwkThumbprint, EmbeddedJWK, errors, jwtVerify } from 'jose';
import type { DPoPNonces } from './dpopNonces';
import type { ReplayCache } from './replayCache';

/**
 * Proof algorithms accepted: asymmetric only (RFC 9449 §4.3), announced in the challenge. Ed25519
 * (RFC 9864) beside EdDSA: oidc-provider advertises and binds tokens to both.
 */
export const dpopAlgorithms: readonly string[] = Object.freeze([
  'ES256',
  'RS256',
  'PS256',
  'EdDSA',
  'Ed25519',
]);

/** A DPoP proof this API refuses; `message` is a fixed sentence, safe in a header. */
export class DPoPProofError extends Error {
  override readonly name = 'DPoPProofError';
}

/**
 * The proof must carry a nonce this API issued (RFC 9449 §9): its `iat` is out of the window (a
 * client clock off), or its nonce is not one this API issued or no longer good. The API answers
 * `use_dpop_nonce` with a fresh nonce; the client retries once with it.
 */
export class DPoPNonceRequired extends Error {
  override readonly name = 'DPoPNonceRequired';
}

/** What {@link verifyDPoPProof} checks the proof against. */
export interface DPoPProofContext {
  /** The request's method, e.g. `GET`. */
  readonly method: string;
  /** The request's URL; the proof's `htu` must equal it without query and fragment. */
  readonly url: URL;
  /** The access token sent with the proof; `ath` must be its SHA-256. */
  readonly accessToken: string;
  /** The token's `cnf.jkt`: the thumbprint of the key that must have signed the proof. */
  readonly jkt: string;
  /** Where seen `jti`s are kept. */
  readonly replayCache: ReplayCache;
  /** How old a proof may be, in seconds (its `iat`). Default 60. */
  readonly maxAgeSeconds?: number;
  /** How far ahead a proof's `iat` may be, in seconds (clock skew). Default 5. */
  readonly clockToleranceSeconds?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * The nonces this API issues. With them, a proof whose `iat` is out of the window gets a
   * nonce to use (see {@link DPoPNonceRequired}) rather than a refusal, and a proof with a good
   * nonce is fresh whatever its `iat`. Without them, nonces are ignored.
   */
  readonly nonces?: DPoPNonces;
}

const encoder = new TextEncoder();

async function sha256(value: string): Promise<string> {
  return base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value))),
  );
}

/**
 * `htu` as RFC 9449 §4.3 compares it: the URL without query and fragment, normalized. The WHATWG
 * parser handles case, default port and dot segments; percent-encoding is normalized here (RFC
 * 3986 §6.2.2.1, §6.2.2.2): unreserved characters decoded, other escapes in upper-case hex.
 */
function withoutQuery(url: string | URL): string {
  const copy = new URL(url);
  copy.search = '';
  copy.hash = '';
  return copy.href.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[\w.~-]/.test(char) ? char : escape.toUpperCase();
  });
}

/**
 * Verifies a DPoP proof (RFC 9449 §4.3) for one request with a bound access token: a JWS with
 * `typ: dpop+jwt`, an asymmetric `alg`, signed by the public `jwk` in its header, whose
 * thumbprint is the token's `cnf.jkt`; `htm` and `htu` this request; `iat` recent, or a current
 * nonce of this API's; `ath` the token's SHA-256; a `jti` never seen before.
 *
 * @throws {@link DPoPProofError} naming what is wrong; {@link DPoPNonceRequired} when the proof
 * needs a nonce of this API's.
 */
export async function verifyDPoPProof(proof: string, context: DPoPProofContext): Promise<void> {
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...dpopAlgorithms],
    });
  } catch (error) {
    if (error instanceof errors.JOSEAlgNotAllowed) {
      throw new DPoPProofError('The DPoP proof algorithm is not allowed.');
    }
    if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'typ') {
      throw new DPoPProofError('The DPoP proof must have typ dpop+jwt.');
    }
    // A key in the header that jose or WebCrypto cannot use (an RSA key under 2048 bits, a point
    // off the curve: DataError; `key_ops` the key type cannot have: SyntaxError) is a bad proof
    // too; anything else (an algorithm this runtime lacks) is ours.
    if (
      error instanceof errors.JOSEError ||
      error instanceof TypeError ||
      (error instanceof DOMException &&
        (error.name === 'DataError' || error.name === 'SyntaxError'))
    ) {
      throw new DPoPProofError('The DPoP proof is malformed or its signature is invalid.', {
        cause: error,
      });
    }
    throw error;
  }
  const { payload, protectedHeader } = verified;
  const jwk = protectedHeader.jwk;
  if (jwk === undefined || (await calculateJwkThumbprint(jwk, 'sha256')) !== context.jkt) {
    throw new DPoPProofError('The DPoP proof is signed by another key than the token is bound to.');
  }
  if (payload.htm !== context.method) {
    throw new DPoPProofError('The DPoP proof is for another method.');
  }
  let htu: string | null = null;
  try {
    htu = typeof payload.htu === 'string' ? withoutQuery(payload.htu) : null;
  } catch {
    htu = null;
  }
  if (htu === null || htu !== withoutQuery(context.url)) {
    throw new DPoPProofError('The DPoP proof is for another URL.');
  }
  const now = (context.now ?? Date.now)() / 1000;
  const maxAge = context.maxAgeSeconds ?? 60;
  const tolerance = context.clockToleranceSeconds ?? 5;
  const { nonces } = context;
  // Until when the proof could pass the freshness check, in ms: how long to remember its jti.
  let freshUntil: number;
  if (nonces !== undefined && typeof payload.nonce === 'string') {
    const issued = nonces.issuedAt(payload.nonce);
    if (issued === null) throw new DPoPNonceRequired('The DPoP nonce is not a current one.');
    if (typeof payload.iat !== 'number') {
      throw new DPoPProofError('The DPoP proof is too old or from the future.');
    }
    // Remembered a little past the nonce's last good moment, whatever the cache's rounding.
    freshUntil = issued + nonces.lifetime + tolerance * 1000;
  } else if (
    typeof payload.iat !== 'number' ||
    payload.iat > now + tolerance ||
    payload.iat < now - maxAge
  ) {
    if (nonces !== undefined && typeof payload.iat === 'number') {
      throw new DPoPNonceRequired('The DPoP proof is too old or from the future: use the nonce.');
    }
    throw new DPoPProofError('The DPoP proof is too old or from the future.');
  } else {
    freshUntil = (payload.iat + maxAge + tolerance) * 1000;
  }
  if (payload.ath !== (await sha256(context.accessToken))) {
    throw new DPoPProofError('The DPoP proof is for another access token.');
  }
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256) {
    throw new DPoPProofError('The DPoP proof has no usable jti.');
  }
  // Kept until the proof could no longer pass the freshness check anyway.
  if (!(await context.replayCache.add(payload.jti, freshUntil))) {
    throw new DPoPProofError('The DPoP proof was used before.');
  }
}
