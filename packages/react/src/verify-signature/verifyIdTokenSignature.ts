import { compactVerify, createRemoteJWKSet } from 'jose';
import type { SignatureVerifier } from '@oidc-kit/react';

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
 * Verifies an ID token's signature against the provider's JWKS, with `jose`; the key set is
 * fetched once per JWKS URL and refetched when a token names an unknown key. Only asymmetric
 * algorithms pass. Give it to the config as `verifySignature`; the engine refuses the token
 * (`id_token_invalid`, check `signature`) whenever it rejects: fails closed.
 *
 * @example
 * import { verifyIdTokenSignature } from '@oidc-kit/react/verify-signature';
 * const config = { authority, client_id, redirect_uri, verifySignature: verifyIdTokenSignature };
 */
export const verifyIdTokenSignature: SignatureVerifier = async (idToken, { jwksUri, timeout }) => {
  let keySet = keySets.get(jwksUri);
  if (keySet === undefined) {
    keySet = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: timeout });
    keySets.set(jwksUri, keySet);
  }
  // Only the signature: the claims are checked by the engine, with the configured leeway.
  await compactVerify(idToken, keySet, { algorithms: asymmetricAlgorithms });
};
