import { jwtDecode } from 'jwt-decode';
import { authError } from './errors';
import type { AuthError } from './errors';

/** The ID-token checks oidc-kit adds to those of oidc-client-ts (which checks `sub` and `nonce`). */
export type IdTokenCheck =
  | 'format'
  | 'iss'
  | 'aud'
  | 'azp'
  | 'exp'
  | 'iat'
  | 'nonce'
  | 'sub'
  | 'auth_time'
  | 'signature'
  | 'callback_iss';

/** What an ID token is checked against. */
export interface IdTokenExpectations {
  /** The issuer from the provider's discovery document. */
  issuer: string;
  clientId: string;
  /** Seconds of tolerated clock difference. */
  clockLeeway: number;
  /** Seconds since the epoch; the current time by default. */
  now?: number;
  /**
   * Check `exp` and `iat` (default true). Off for a session shared by another tab: those checks
   * belong to the moment the provider issued the token, and a refresh may not issue a new one.
   */
  times?: boolean;
}

/** Decoded ID-token claims (unverified). */
export type IdTokenClaims = Record<string, unknown> & {
  iss?: unknown;
  sub?: unknown;
  aud?: unknown;
  azp?: unknown;
  exp?: unknown;
  iat?: unknown;
};

/**
 * The `id_token_invalid` error for one failed check. `detail` (development only, `false` in
 * production) says what was wrong.
 */
export function idTokenInvalid(
  check: IdTokenCheck,
  detail: string | false,
  cause?: unknown,
): AuthError {
  return authError(
    'id_token_invalid',
    process.env.NODE_ENV !== 'production' &&
      detail !== false && [
        `The ID token failed the \`${check}\` check: ${detail}`,
        'No user was stored; the sign-in was abandoned.',
      ],
    { check, cause },
  );
}

/** Decodes an ID token's claims without verifying it (with oidc-client-ts's own decoder). */
export function decodeIdToken(idToken: string): IdTokenClaims {
  let claims: unknown;
  try {
    claims = jwtDecode(idToken);
  } catch (cause) {
    throw idTokenInvalid(
      'format',
      process.env.NODE_ENV !== 'production' && 'it is not a compact JWT with a JSON payload.',
      cause,
    );
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw idTokenInvalid(
      'format',
      process.env.NODE_ENV !== 'production' && 'its payload is not a JSON object.',
    );
  }
  return claims as IdTokenClaims;
}

/**
 * Checks what oidc-client-ts leaves out (OpenID Connect Core 3.1.3.7): `iss` is the discovered
 * issuer, `aud` contains the client id, `azp` is the client id when present or when there are
 * several audiences, `exp` is in the future and `iat` not, within the clock leeway.
 * Throws `AuthError` `id_token_invalid` naming the first failed check.
 */
export function checkIdToken(idToken: string, expected: IdTokenExpectations): IdTokenClaims {
  const claims = decodeIdToken(idToken);
  const now = expected.now ?? Math.floor(Date.now() / 1000);

  if (claims.iss !== expected.issuer) {
    throw idTokenInvalid(
      'iss',
      process.env.NODE_ENV !== 'production' &&
        `its issuer ${JSON.stringify(claims.iss)} is not the provider's ${JSON.stringify(expected.issuer)}.`,
    );
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.clientId)) {
    throw idTokenInvalid(
      'aud',
      process.env.NODE_ENV !== 'production' &&
        `its audience ${JSON.stringify(claims.aud)} does not contain the client id ${JSON.stringify(expected.clientId)}.`,
    );
  }
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== expected.clientId) {
    throw idTokenInvalid(
      'azp',
      process.env.NODE_ENV !== 'production' &&
        `its authorized party ${JSON.stringify(claims.azp)} is not the client id ${JSON.stringify(expected.clientId)}.`,
    );
  }
  if (expected.times === false) return claims;
  if (typeof claims.exp !== 'number' || claims.exp + expected.clockLeeway <= now) {
    throw idTokenInvalid(
      'exp',
      process.env.NODE_ENV !== 'production' &&
        (typeof claims.exp === 'number'
          ? `it expired at ${new Date(claims.exp * 1000).toISOString()}; check the device clock.`
          : 'it has no numeric expiry.'),
    );
  }
  if (typeof claims.iat !== 'number' || claims.iat - expected.clockLeeway > now) {
    throw idTokenInvalid(
      'iat',
      process.env.NODE_ENV !== 'production' &&
        (typeof claims.iat === 'number'
          ? `it was issued in the future (${new Date(claims.iat * 1000).toISOString()}); check the device clock.`
          : 'it has no numeric issue time.'),
    );
  }
  return claims;
}
