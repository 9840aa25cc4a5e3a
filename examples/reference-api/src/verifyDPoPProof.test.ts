import { createSign, generateKeyPairSync } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { DPoPNonces } from './dpopNonces';
import { MemoryReplayCache } from './replayCache';
import { proofChecker, refusal, token, url } from './testDPoPProof';
import { createDPoPKey, signProof } from './testSupport';
import type { DPoPKey } from './testSupport';
import { DPoPNonceRequired } from './verifyDPoPProof';

let key: DPoPKey;
let other: DPoPKey;

beforeAll(async () => {
  [key, other] = await Promise.all([createDPoPKey(), createDPoPKey()]);
});

const check = proofChecker(() => key.jkt);

describe('verifyDPoPProof', () => {
  it('accepts a good proof, whatever query or fragment either URL has', async () => {
    await expect(check(await signProof(key, url, token))).resolves.toBeUndefined();
    await expect(
      check(await signProof(key, `${url}?page=2#top`, token), { url: new URL(`${url}?page=3`) }),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['a percent-encoded unreserved character in htu', 'http://localhost:4001/%6De', url],
    ['percent-encoded unreserved characters in the request', url, 'http://localhost:4001/%6d%65'],
    ['lower-case hex in htu', 'http://localhost:4001/a%2fb', 'http://localhost:4001/a%2Fb'],
    [
      'an encoded tilde against a plain one',
      'http://localhost:4001/%7Euser',
      'http://localhost:4001/~user',
    ],
    ['an upper-case scheme and host in htu', 'HTTP://LocalHost:4001/me', url],
    ['the default port in htu', 'https://api.example.com:443/me', 'https://api.example.com/me'],
    [
      'the default port in the request',
      'http://api.example.com/me',
      'http://api.example.com:80/me',
    ],
  ])(
    'accepts a proof whose htu is the request URL up to percent-encoding, scheme and host case and default port (RFC 3986 §6.2.2, §6.2.3): %s',
    async (_label, htu, requestUrl) => {
      await expect(
        check(await signProof(key, htu, token), { url: new URL(requestUrl) }),
      ).resolves.toBeUndefined();
    },
  );

  it('refuses a proof whose htu names a port other than the request URL’s default one', async () => {
    const proof = await signProof(key, 'https://api.example.com:8443/me', token);
    expect(await refusal(check(proof, { url: new URL('https://api.example.com/me') }))).toBe(
      'The DPoP proof is for another URL.',
    );
  });

  it('refuses a proof whose htu encodes a reserved character the request URL has plain', async () => {
    // `%2F` is data within a segment, not a separator (RFC 3986 §2.2): another resource.
    const proof = await signProof(key, 'http://localhost:4001/a%2Fb', token);
    expect(await refusal(check(proof, { url: new URL('http://localhost:4001/a/b') }))).toBe(
      'The DPoP proof is for another URL.',
    );
  });

  it('accepts a proof signed with Ed25519 (RFC 9864), an algorithm the dev provider advertises', async () => {
    const edKey = await createDPoPKey('Ed25519');
    const proof = await signProof(edKey, url, token, { header: { alg: 'Ed25519' } });
    await expect(check(proof, { jkt: edKey.jkt })).resolves.toBeUndefined();
  });

  it.each([
    ['another typ', { header: { typ: 'JWT' } }, 'The DPoP proof must have typ dpop+jwt.'],
    ['no htm', { claims: { htm: undefined } }, 'The DPoP proof is for another method.'],
    ['another method', { claims: { htm: 'POST' } }, 'The DPoP proof is for another method.'],
    [
      'another URL',
      { claims: { htu: 'http://localhost:4001/admin/stats' } },
      'The DPoP proof is for another URL.',
    ],
    [
      'another origin',
      { claims: { htu: 'https://localhost:4001/me' } },
      'The DPoP proof is for another URL.',
    ],
    ['no htu', { claims: { htu: undefined } }, 'The DPoP proof is for another URL.'],
    ['an htu that is no URL', { claims: { htu: 'me' } }, 'The DPoP proof is for another URL.'],
    [
      'an iat 61 s old',
      { claims: { iat: Math.floor(Date.now() / 1000) - 61 } },
      'The DPoP proof is too old or from the future.',
    ],
    [
      'an iat 30 s ahead',
      { claims: { iat: Math.floor(Date.now() / 1000) + 30 } },
      'The DPoP proof is too old or from the future.',
    ],
    ['no iat', { claims: { iat: undefined } }, 'The DPoP proof is too old or from the future.'],
    [
      'the hash of another token',
      { claims: { ath: 'x'.repeat(43) } },
      'The DPoP proof is for another access token.',
    ],
    ['no ath', { claims: { ath: undefined } }, 'The DPoP proof is for another access token.'],
    ['no jti', { claims: { jti: undefined } }, 'The DPoP proof has no usable jti.'],
    ['a jti that is a number', { claims: { jti: 7 } }, 'The DPoP proof has no usable jti.'],
    [
      'a jti of more than 256 characters (the replay cache holds every jti)',
      { claims: { jti: 'x'.repeat(257) } },
      'The DPoP proof has no usable jti.',
    ],
  ])('refuses a proof with %s', async (_label, options, message) => {
    expect(await refusal(check(await signProof(key, url, token, options)))).toBe(message);
  });

  it('refuses a proof signed by a key other than the one the token is bound to', async () => {
    expect(await refusal(check(await signProof(other, url, token)))).toBe(
      'The DPoP proof is signed by another key than the token is bound to.',
    );
  });

  it('refuses a proof whose header key did not sign it', async () => {
    // Signed by `other`, claiming `key`: the signature check fails.
    const forged = await signProof(other, url, token, { header: { jwk: key.publicJwk } });
    expect(await refusal(check(forged))).toBe(
      'The DPoP proof is malformed or its signature is invalid.',
    );
  });

  it('refuses a proof that carries a private key in its header', async () => {
    const privateJwk = await exportJWK(key.privateKey);
    const proof = await signProof(key, url, token, { header: { jwk: privateJwk } });
    expect(await refusal(check(proof))).toBe(
      'The DPoP proof is malformed or its signature is invalid.',
    );
  });

  it.each([
    ['an EC point that is not on the curve', { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' }],
    ['an EC key without coordinates', { kty: 'EC', crv: 'P-256' }],
  ])('refuses a proof whose header key is %s, rather than failing', async (_label, jwk) => {
    const proof = await signProof(key, url, token, { header: { jwk } });
    expect(await refusal(check(proof))).toBe(
      'The DPoP proof is malformed or its signature is invalid.',
    );
  });

  it.each([['sign'], ['encrypt'], ['deriveBits']])(
    'refuses a proof whose header key declares key_ops ["%s"] (its thumbprint unchanged), rather than failing',
    async (operation) => {
      const proof = await signProof(key, url, token, {
        header: { jwk: { ...key.publicJwk, key_ops: [operation] } },
      });
      expect(await refusal(check(proof))).toBe(
        'The DPoP proof is malformed or its signature is invalid.',
      );
    },
  );

  it('refuses a proof signed with an RSA key shorter than 2048 bits, rather than failing', async () => {
    // jose will not sign with such a key, so the proof is put together by hand, as an attacker would.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const header = encode({
      typ: 'dpop+jwt',
      alg: 'RS256',
      jwk: publicKey.export({ format: 'jwk' }),
    });
    const payload = encode({ htm: 'GET', htu: url, iat: Math.floor(Date.now() / 1000), jti: 'j' });
    const signature = createSign('RSA-SHA256')
      .update(`${header}.${payload}`)
      .sign(privateKey)
      .toString('base64url');
    expect(await refusal(check(`${header}.${payload}.${signature}`))).toBe(
      'The DPoP proof is malformed or its signature is invalid.',
    );
  });

  it('refuses a symmetric algorithm', async () => {
    const secret = new Uint8Array(32).fill(7);
    const proof = await new SignJWT({ htm: 'GET', htu: url, iat: Math.floor(Date.now() / 1000) })
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk: key.publicJwk })
      .sign(secret);
    expect(await refusal(check(proof))).toBe('The DPoP proof algorithm is not allowed.');
  });

  it('refuses something that is not a JWS', async () => {
    expect(await refusal(check('not.a.proof'))).toBe(
      'The DPoP proof is malformed or its signature is invalid.',
    );
  });

  it('accepts a proof once: the same jti again is a replay', async () => {
    const replayCache = new MemoryReplayCache();
    const proof = await signProof(key, url, token);
    await check(proof, { replayCache });
    expect(await refusal(check(proof, { replayCache }))).toBe('The DPoP proof was used before.');
  });
});

describe('verifyDPoPProof with nonces (a client clock that is off)', () => {
  const ahead = { claims: { iat: Math.floor(Date.now() / 1000) + 120 } };

  async function nonceNeeded(promise: Promise<void>): Promise<void> {
    await expect(promise).rejects.toBeInstanceOf(DPoPNonceRequired);
  }

  it('asks a proof out of the iat window for a nonce, and takes it with a current one', async () => {
    const nonces = new DPoPNonces();
    await nonceNeeded(check(await signProof(key, url, token, ahead), { nonces }));
    const proof = await signProof(key, url, token, {
      claims: { ...ahead.claims, nonce: nonces.issue() },
    });
    await expect(check(proof, { nonces })).resolves.toBeUndefined();
  });

  it('asks again for a nonce it did not issue, or one past its lifetime', async () => {
    let now = Date.now();
    const nonces = new DPoPNonces(60_000, () => now);
    const foreign = new DPoPNonces().issue();
    await nonceNeeded(
      check(await signProof(key, url, token, { claims: { nonce: foreign } }), { nonces }),
    );
    const issued = nonces.issue();
    now += 60_001;
    await nonceNeeded(
      check(await signProof(key, url, token, { claims: { nonce: issued } }), { nonces }),
    );
  });

  it('refuses a replay even at the last moment its nonce is good', async () => {
    let now = Date.now();
    const nonces = new DPoPNonces(60_000, () => now);
    const replayCache = new MemoryReplayCache(100, () => now);
    const proof = await signProof(key, url, token, { claims: { nonce: nonces.issue() } });
    now += 60_000;
    await check(proof, { nonces, replayCache, now: () => now });
    expect(await refusal(check(proof, { nonces, replayCache, now: () => now }))).toBe(
      'The DPoP proof was used before.',
    );
  });

  it('still refuses a replayed proof, a proof by another key, and one without iat', async () => {
    const nonces = new DPoPNonces();
    const replayCache = new MemoryReplayCache();
    const proof = await signProof(key, url, token, { claims: { nonce: nonces.issue() } });
    await check(proof, { nonces, replayCache });
    expect(await refusal(check(proof, { nonces, replayCache }))).toBe(
      'The DPoP proof was used before.',
    );
    expect(
      await refusal(
        check(await signProof(other, url, token, { claims: { nonce: nonces.issue() } }), {
          nonces,
        }),
      ),
    ).toBe('The DPoP proof is signed by another key than the token is bound to.');
    expect(
      await refusal(
        check(
          await signProof(key, url, token, { claims: { iat: undefined, nonce: nonces.issue() } }),
          { nonces },
        ),
      ),
    ).toBe('The DPoP proof is too old or from the future.');
  });
});

describe('MemoryReplayCache', () => {
  it('forgets a jti once it expired, and refuses new ones rather than forget live ones when full', () => {
    let now = 1_000;
    const cache = new MemoryReplayCache(2, () => now);
    expect(cache.add('a', 2_000)).toBe(true);
    expect(cache.add('a', 2_000)).toBe(false);
    expect(cache.add('b', 5_000)).toBe(true);
    expect(cache.add('c', 5_000)).toBe(false); // full, nothing expired
    now = 2_500;
    expect(cache.add('c', 5_000)).toBe(true); // 'a' expired and swept
    expect(cache.add('a', 6_000)).toBe(false); // full again: 'b' and 'c' live
  });
});
