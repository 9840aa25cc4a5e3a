// The signature of an access token: which keys and algorithms verify it, and the tricks an
// attacker plays with its header to choose them.
import { errors, SignJWT } from 'jose';
import type { JWK } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  audience,
  createTestKey,
  issuer,
  localKeys,
  signToken,
  unsignedToken,
} from './testSupport';
import type { TestKey } from './testSupport';
import { verifyAccessToken } from './verifyAccessToken';

let rsa: TestKey;
/** Another key pair with the provider key's kid: what an attacker signs with. */
let attacker: TestKey;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  [rsa, attacker] = await Promise.all([createTestKey('RS256'), createTestKey('RS256')]);
});

function verify(token: string, keys = localKeys(rsa)) {
  return verifyAccessToken(token, { issuer, audience, keys });
}

describe('verifyAccessToken: the signature', () => {
  it('refuses alg none without asking for a key', async () => {
    const keys = vi.fn(localKeys(rsa));
    await expect(verify(unsignedToken(), keys)).rejects.toThrow(errors.JOSEAlgNotAllowed);
    expect(keys).not.toHaveBeenCalled();
  });

  it('refuses HS256 even when signed with the right secret, without asking for a key', async () => {
    const secret = new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!');
    const token = await new SignJWT({ sub: 'user-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(secret);
    const keys = vi.fn(async () => secret);
    await expect(verify(token, keys)).rejects.toThrow(errors.JOSEAlgNotAllowed);
    expect(keys).not.toHaveBeenCalled();
  });

  it('refuses a token signed by a key the provider does not publish', async () => {
    const impostor = await createTestKey('RS256', rsa.kid);
    await expect(verify(await signToken(impostor))).rejects.toThrow(
      errors.JWSSignatureVerificationFailed,
    );
    const unknownKid = await createTestKey('RS256', 'unknown');
    await expect(verify(await signToken(unknownKid))).rejects.toThrow(errors.JWKSNoMatchingKey);
  });

  it.each([
    ['its own key in a jwk header', (jwk: JWK) => ({ jwk })],
    ['a jku header naming its own key set', () => ({ jku: 'https://attacker.example/jwks' })],
    ['an x5u header naming its own certificate', () => ({ x5u: 'https://attacker.example/cert' })],
  ])('refuses a token that brings %s: only the provider keys count', async (_, header) => {
    // Signed with the attacker's key under the provider key's kid, pointing at the attacker's.
    const token = await new SignJWT({ iss: issuer, aud: audience, sub: 'admin', exp: now() + 300 })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'at+jwt',
        kid: rsa.kid,
        ...header(attacker.publicJwk),
      })
      .sign(attacker.privateKey);
    await expect(verify(token)).rejects.toThrow(errors.JWSSignatureVerificationFailed);
  });

  it('refuses a token with a crit header this API does not understand (RFC 7515 §4.1.11)', async () => {
    // jose will not sign such a token, so it is put together by hand, as an attacker would.
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${encode({ alg: 'RS256', typ: 'at+jwt', kid: rsa.kid, crit: ['urn:x'], 'urn:x': 1 })}.${encode(
      { iss: issuer, aud: audience, sub: 'user-1', exp: now() + 300 },
    )}`;
    const signature = await crypto.subtle.sign(
      'RSASSA-PKCS1-v1_5',
      rsa.privateKey,
      new TextEncoder().encode(input),
    );
    const token = `${input}.${Buffer.from(signature).toString('base64url')}`;
    await expect(verify(token)).rejects.toThrow(errors.JOSENotSupported);
  });

  describe('a token without kid, against a key set with several keys it could be signed by', () => {
    // Two RSA keys at once is what a provider publishes while it rotates its signing key.
    const withoutKid = (key: TestKey) =>
      new SignJWT({ iss: issuer, aud: audience, sub: 'user-1', exp: now() + 300 })
        .setProtectedHeader({ alg: key.alg, typ: 'at+jwt' })
        .sign(key.privateKey);
    let previous: TestKey;
    let current: TestKey;
    beforeAll(async () => {
      [previous, current] = await Promise.all([
        createTestKey('RS256', 'previous'),
        createTestKey('RS256', 'current'),
      ]);
    });

    it('is verified by whichever of them signed it', async () => {
      for (const key of [previous, current]) {
        const verified = await verify(await withoutKid(key), localKeys(previous, current));
        expect(verified.sub).toBe('user-1');
      }
    });

    it('is refused when none of them signed it', async () => {
      await expect(
        verify(await withoutKid(attacker), localKeys(previous, current)),
      ).rejects.toThrow(errors.JWSSignatureVerificationFailed);
    });
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await signToken(rsa)).split('.');
    const payload = Buffer.from(
      JSON.stringify({ iss: issuer, aud: audience, sub: 'admin', exp: now() + 300 }),
    ).toString('base64url');
    await expect(verify(`${header}.${payload}.${signature}`)).rejects.toThrow(
      errors.JWSSignatureVerificationFailed,
    );
  });
});
