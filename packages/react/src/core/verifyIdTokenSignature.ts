import type { createRemoteJWKSet } from 'jose';
import { idTokenInvalid } from './idToken';

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;
const keySets = new Map<string, RemoteKeySet>();
// A public client holds no secret, so an HMAC-signed ID token proves nothing; `none` never does.
const asymmetricAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/**
 * Verifies the ID token's signature against the provider's JWKS with `jose`, loaded on first use.
 * Fails closed: any failure (unreachable JWKS, unknown key, bad signature, `alg: none`) throws
 * `AuthError` `id_token_invalid` with check `signature`.
 */
export async function verifyIdTokenSignature(
  idToken: string,
  jwksUri: string,
  timeout: number,
): Promise<void> {
  try {
    const jose = await import('jose');
    let keySet = keySets.get(jwksUri);
    if (keySet === undefined) {
      keySet = jose.createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: timeout });
      keySets.set(jwksUri, keySet);
    }
    // Only the signature: the claims are checked by checkIdToken, with the configured leeway.
    await jose.compactVerify(idToken, keySet, { algorithms: asymmetricAlgorithms });
  } catch (cause) {
    throw idTokenInvalid(
      'signature',
      process.env.NODE_ENV !== 'production' &&
        `its signature could not be verified against ${jwksUri} (${cause instanceof Error ? cause.message : String(cause)}).`,
      cause,
    );
  }
}
