import { beforeAll, describe, expect, it, vi } from 'vitest';
import { adminStats, me } from './handlers';
import { bearer, invalidTokenChallenge, setUpTestApi } from './testApi';
import { createDPoPKey, createTestKey, publicOrigin, signProof, signToken } from './testSupport';
import type { DPoPKey } from './testSupport';

// DPoP-bound access tokens (RFC 9449) through the whole API: proofs, nonces, replays, 403.

// Every handler is a spy that runs the real one: a refused request must reach none of them.
vi.mock('./handlers', { spy: true });

const key = await createTestKey('RS256');
const suite = setUpTestApi(key);
const { api } = suite;

describe('DPoP-bound tokens (cnf.jkt)', () => {
  const meUrl = `${publicOrigin}/me`;
  let dpopKey: DPoPKey;
  let otherKey: DPoPKey;
  beforeAll(async () => {
    [dpopKey, otherKey] = await Promise.all([createDPoPKey(), createDPoPKey()]);
  });
  const boundToken = () => signToken(key, { claims: { cnf: { jkt: dpopKey.jkt } } });

  it('answers 500 and logs it when the runtime cannot use a well-formed proof key (a server fault)', async () => {
    const token = await boundToken();
    const proof = await signProof(dpopKey, meUrl, token);
    const importKey = crypto.subtle.importKey.bind(crypto.subtle) as (
      ...args: unknown[]
    ) => ReturnType<typeof crypto.subtle.importKey>;
    // This runtime's WebCrypto lacks the proof's algorithm (ES256 here; Ed25519 on older runtimes):
    // a fault of the server's, which the client cannot fix. The access token (RS256) still verifies.
    const spy = vi
      .spyOn(crypto.subtle, 'importKey')
      .mockImplementation(((...args: unknown[]) =>
        (args[2] as { name?: string }).name === 'ECDSA'
          ? Promise.reject(new DOMException('Unsupported algorithm', 'NotSupportedError'))
          : importKey(...args)) as typeof crypto.subtle.importKey);
    try {
      const response = await api().request('/me', {
        headers: { Authorization: `DPoP ${token}`, DPoP: proof },
      });
      expect(response.status).toBe(500);
      expect(suite.logger.errors).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });
  const dpopChallenge = (error: string) =>
    new RegExp(
      `^DPoP error="${error}", error_description="[^"\\\\]+", algs="ES256 RS256 PS256 EdDSA Ed25519"$`,
    );

  it('answers a bound token sent with a proof for this request', async () => {
    const token = await boundToken();
    const response = await api().request('/me', {
      headers: { Authorization: `DPoP ${token}`, DPoP: await signProof(dpopKey, meUrl, token) },
    });
    expect(response.status).toBe(200);
    expect(me).toHaveBeenCalledTimes(1);
  });

  it('answers a proof whose htu percent-encodes an unreserved character of the path (RFC 9449 §4.3)', async () => {
    const token = await boundToken();
    const response = await api().request('/me', {
      headers: {
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(dpopKey, `${publicOrigin}/%6De`, token),
      },
    });
    expect(response.status).toBe(200);
    expect(me).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['sent as a bearer token', async (token: string) => bearer(token), 'invalid_token'],
    [
      'without a proof',
      async (token: string) => ({ Authorization: `DPoP ${token}` }),
      'invalid_dpop_proof',
    ],
    [
      'with two proofs',
      async (token: string) => ({
        Authorization: `DPoP ${token}`,
        DPoP: `${await signProof(dpopKey, meUrl, token)}, ${await signProof(dpopKey, meUrl, token)}`,
      }),
      'invalid_dpop_proof',
    ],
    [
      'with a proof by another key',
      async (token: string) => ({
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(otherKey, meUrl, token),
      }),
      'invalid_dpop_proof',
    ],
    [
      'with a proof whose header key is no usable key',
      async (token: string) => ({
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(dpopKey, meUrl, token, {
          header: { jwk: { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' } },
        }),
      }),
      'invalid_dpop_proof',
    ],
    [
      'with a proof for another URL',
      async (token: string) => ({
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(dpopKey, `${publicOrigin}/admin/stats`, token),
      }),
      'invalid_dpop_proof',
    ],
    [
      'with a proof for another method',
      async (token: string) => ({
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(dpopKey, meUrl, token, { claims: { htm: 'POST' } }),
      }),
      'invalid_dpop_proof',
    ],
  ])('refuses a bound token %s, with a DPoP challenge', async (_label, headers, error) => {
    const token = await boundToken();
    const response = await api().request('/me', { headers: await headers(token) });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(dpopChallenge(error));
    expect(((await response.json()) as { error: string }).error).toBe(error);
    expect(me).not.toHaveBeenCalled();
  });

  it('gives a client whose clock is off a nonce, then answers its proof with the nonce (RFC 9449 §9)', async () => {
    const app = api();
    const token = await boundToken();
    const skewed = { claims: { iat: Math.floor(Date.now() / 1000) + 120 } };
    const first = await app.request('/me', {
      headers: {
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(dpopKey, meUrl, token, skewed),
      },
    });
    expect(first.status).toBe(401);
    expect(first.headers.get('www-authenticate')).toMatch(dpopChallenge('use_dpop_nonce'));
    const nonce = first.headers.get('dpop-nonce') ?? '';
    expect(nonce).not.toBe('');
    const withNonce = async (value: string) =>
      app.request('/me', {
        headers: {
          Authorization: `DPoP ${token}`,
          DPoP: await signProof(dpopKey, meUrl, token, {
            claims: { ...skewed.claims, nonce: value },
          }),
        },
      });
    expect((await withNonce(nonce)).status).toBe(200);
    // A nonce this API did not issue is no way around the clock.
    const forged = await withNonce(`${Date.now()}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(dpopChallenge('use_dpop_nonce'));
    expect(me).toHaveBeenCalledTimes(1);
  });

  it('refuses a proof sent a second time', async () => {
    const app = api();
    const token = await boundToken();
    const headers = {
      Authorization: `DPoP ${token}`,
      DPoP: await signProof(dpopKey, meUrl, token),
    };
    expect((await app.request('/me', { headers })).status).toBe(200);
    const replayed = await app.request('/me', { headers });
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get('www-authenticate')).toMatch(dpopChallenge('invalid_dpop_proof'));
    expect(me).toHaveBeenCalledTimes(1);
  });

  it('answers a bound token without the role with 403 and a DPoP challenge', async () => {
    const token = await boundToken();
    const response = await api().request('/admin/stats', {
      headers: {
        Authorization: `DPoP ${token}`,
        DPoP: await signProof(dpopKey, `${publicOrigin}/admin/stats`, token),
      },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'DPoP error="insufficient_scope", error_description="The admin role is required.", algs="ES256 RS256 PS256 EdDSA Ed25519"',
    );
    expect(adminStats).not.toHaveBeenCalled();
  });

  it('refuses an unbound token sent with the DPoP scheme', async () => {
    const response = await api().request('/me', {
      headers: { Authorization: `DPoP ${await signToken(key)}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(invalidTokenChallenge);
    expect(me).not.toHaveBeenCalled();
  });
});
