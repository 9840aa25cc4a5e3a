import { beforeAll, describe, expect, it } from 'vitest';
import { proofChecker, refusal, url } from './testDPoPProof';
import { createDPoPKey } from './testSupport';
import type { DPoPKey } from './testSupport';

// verifyDPoPProof against proofs no library would sign: what an attacker sends.

let key: DPoPKey;

beforeAll(async () => {
  key = await createDPoPKey();
});

const check = proofChecker(() => key.jkt);

describe('verifyDPoPProof', () => {
  describe('put together by hand, as an attacker would', () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    /** A proof of `header` over good claims, with `signature` (made by no key). */
    const forged = (header: Record<string, unknown>, signature = 'A'.repeat(86)) =>
      `${encode({ typ: 'dpop+jwt', ...header })}.${encode({
        htm: 'GET',
        htu: url,
        iat: Math.floor(Date.now() / 1000),
        jti: crypto.randomUUID(),
      })}.${signature}`;

    it('refuses alg none, even beside the key the token is bound to', async () => {
      for (const header of [{ alg: 'none' }, { alg: 'none', jwk: key.publicJwk }]) {
        expect(await refusal(check(forged(header, '')))).toBe(
          'The DPoP proof algorithm is not allowed.',
        );
      }
    });

    it.each([
      ['no jwk header (a kid instead)', async () => ({ kid: 'key-1' })],
      ['a jwk header that is no object', async () => ({ jwk: 'key' })],
      ['a symmetric key in its jwk header', async () => ({ jwk: { kty: 'oct', k: 'c2VjcmV0' } })],
      [
        'an RSA key in its jwk header',
        async () => ({ jwk: (await createDPoPKey('RS256')).publicJwk }),
      ],
    ])('refuses an ES256 proof with %s', async (_label, header) => {
      expect(await refusal(check(forged({ alg: 'ES256', ...(await header()) })))).toBe(
        'The DPoP proof is malformed or its signature is invalid.',
      );
    });
  });
});
