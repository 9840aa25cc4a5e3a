import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';

/** A client's DPoP key pair and its thumbprint (`cnf.jkt` of the tokens bound to it). */
export interface DPoPKey {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

export async function createDPoPKey(): Promise<DPoPKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

/**
 * A DPoP proof (RFC 9449 §4.2) for `POST url`, with the provider's `nonce` when given, made at
 * `iat` (default now; another value plays a client whose clock is off).
 */
export function dpopProof(
  key: DPoPKey,
  url: string,
  nonce?: string,
  iat = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT({
    htm: 'POST',
    htu: url,
    iat,
    jti: randomUUID(),
    ...(nonce === undefined ? {} : { nonce }),
  })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk })
    .sign(key.privateKey);
}

/** POSTs a token request as a public client, with a DPoP proof header when given. */
export function postToken(
  issuer: string,
  fields: Record<string, string>,
  proof?: string,
): Promise<Response> {
  return fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(proof === undefined ? {} : { dpop: proof }),
    },
    body: new URLSearchParams(fields).toString(),
  });
}
