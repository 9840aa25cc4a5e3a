import { Hono } from 'hono';
import { errors } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiEnv } from './apiEnv';
import {
  audience,
  createDPoPKey,
  createTestKey,
  issuer,
  localKeys,
  signProof,
  signToken,
} from './testSupport';
import type { DPoPKey, TestKey } from './testSupport';
import {
  accessTokenAlgorithms,
  InvalidAccessTokenError,
  requireAccessToken,
  verifyAccessToken,
} from './verifyAccessToken';
import type { RequireAccessTokenOptions } from './verifyAccessToken';

let rsa: TestKey;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  rsa = await createTestKey('RS256');
});

function verify(token: string, keys = localKeys(rsa)) {
  return verifyAccessToken(token, { issuer, audience, keys });
}

describe('verifyAccessToken', () => {
  it('returns sub, name, roles and scope, and the claims', async () => {
    const token = await signToken(rsa, {
      claims: { name: 'Ada Admin', roles: ['admin', 'user'], scope: 'openid profile' },
    });
    const verified = await verify(token);
    expect(verified).toMatchObject({
      sub: 'user-1',
      name: 'Ada Admin',
      roles: ['admin', 'user'],
      scope: 'openid profile',
    });
    expect(verified.claims).toMatchObject({ iss: issuer, aud: audience, sub: 'user-1' });
  });

  it('fills name with null, roles with [] and scope with "" when the token has none', async () => {
    const token = await signToken(rsa, { claims: { scope: undefined } });
    expect(await verify(token)).toMatchObject({ name: null, roles: [], scope: '' });
  });

  it.each([
    ['a space-separated string (Entra ID)', 'api.read api.write', 'api.read api.write'],
    ['an array of strings (Okta)', ['api.read', 'api.write'], 'api.read api.write'],
    ['an array with other values', ['api.read', 7, null, 'a b'], 'api.read'],
    ['a number', 7, ''],
  ])('reads scopes from scp when there is no scope claim: %s', async (_, scp, scope) => {
    const token = await signToken(rsa, { claims: { scope: undefined, scp } });
    expect(await verify(token)).toMatchObject({ scope });
  });

  it('prefers the scope claim to scp', async () => {
    const token = await signToken(rsa, { claims: { scope: 'openid', scp: ['api.read'] } });
    expect(await verify(token)).toMatchObject({ scope: 'openid' });
  });

  it('keeps only string roles, and ignores a roles claim that is not an array', async () => {
    const mixed = await signToken(rsa, { claims: { roles: ['admin', 7, null, 'user'] } });
    expect((await verify(mixed)).roles).toEqual(['admin', 'user']);
    const single = await signToken(rsa, { claims: { roles: 'admin' } });
    expect((await verify(single)).roles).toEqual([]);
  });

  it('accepts an audience array that includes this API', async () => {
    const token = await signToken(rsa, { claims: { aud: ['other-api', audience] } });
    expect((await verify(token)).sub).toBe('user-1');
  });

  it.each(['RS256', 'PS256', 'ES256', 'EdDSA'])('accepts %s', async (alg) => {
    const key = await createTestKey(alg);
    expect((await verify(await signToken(key), localKeys(key))).sub).toBe('user-1');
  });

  it('allows exactly the asymmetric algorithms RS256, PS256, ES256 and EdDSA', () => {
    expect(accessTokenAlgorithms).toEqual(['RS256', 'PS256', 'ES256', 'EdDSA']);
  });

  it.each(['at+jwt', 'application/at+jwt', 'JWT', 'jwt'])('accepts typ %s', async (typ) => {
    const token = await signToken(rsa, { header: { typ } });
    expect((await verify(token)).sub).toBe('user-1');
  });

  it.each([
    ['an ID-token-like typ', 'id_token+jwt'],
    ['a DPoP proof typ', 'dpop+jwt'],
    ['a logout token typ', 'logout+jwt'],
    ['no typ', undefined],
  ])('refuses %s', async (_, typ) => {
    const token = await signToken(rsa, { header: { typ } });
    await expect(verify(token)).rejects.toThrow(InvalidAccessTokenError);
  });

  it('tolerates 5 seconds of clock difference on exp, and no more', async () => {
    const justExpired = await signToken(rsa, { claims: { exp: now() - 2 } });
    expect((await verify(justExpired)).sub).toBe('user-1');
    const expired = await signToken(rsa, { claims: { exp: now() - 10 } });
    await expect(verify(expired)).rejects.toThrow(errors.JWTExpired);
  });

  it('refuses a token that is not valid yet (nbf)', async () => {
    const token = await signToken(rsa, { claims: { nbf: now() + 60 } });
    await expect(verify(token)).rejects.toThrow(errors.JWTClaimValidationFailed);
  });

  it.each(['exp', 'sub', 'iss', 'aud'])('refuses a token without %s', async (claim) => {
    const token = await signToken(rsa, { claims: { [claim]: undefined } });
    await expect(verify(token)).rejects.toThrow(errors.JWTClaimValidationFailed);
  });

  it('refuses an empty sub', async () => {
    const token = await signToken(rsa, { claims: { sub: '' } });
    await expect(verify(token)).rejects.toThrow(InvalidAccessTokenError);
  });

  it('refuses another issuer, even one differing only by a trailing slash', async () => {
    for (const iss of ['http://evil.example', `${issuer}/`]) {
      const token = await signToken(rsa, { claims: { iss } });
      await expect(verify(token)).rejects.toMatchObject({ claim: 'iss' });
    }
  });

  it('refuses a token for another audience (an ID token for the app, say)', async () => {
    const token = await signToken(rsa, { claims: { aud: 'reference-app' } });
    await expect(verify(token)).rejects.toMatchObject({ claim: 'aud' });
  });

  it.each(['exp', 'nbf', 'iat'])('refuses a token whose %s is not a number', async (claim) => {
    const token = await signToken(rsa, { claims: { [claim]: String(now() + 300) } });
    await expect(verify(token)).rejects.toMatchObject({ claim });
  });

  it('accepts a token whose iat is in the future: exp bounds its life, and nbf says when it starts', async () => {
    // RFC 9068 §4 asks for exp only; refusing a future iat would refuse every fresh token of a
    // provider whose clock runs a little ahead of this API's.
    const token = await signToken(rsa, { claims: { iat: now() + 3600 } });
    expect((await verify(token)).sub).toBe('user-1');
  });

  it('returns the thumbprint a DPoP-bound token is bound to, and null for a bearer token', async () => {
    const bound = await signToken(rsa, { claims: { cnf: { jkt: 'thumbprint' } } });
    expect((await verify(bound)).jkt).toBe('thumbprint');
    expect((await verify(await signToken(rsa))).jkt).toBeNull();
  });

  it.each([
    ['a number jkt', { jkt: 42 }],
    ['an empty jkt', { jkt: '' }],
    ['a certificate binding only (RFC 8705)', { 'x5t#S256': 'abc' }],
    ['a string', 'abc'],
    ['null', null],
    ['an array', [{ jkt: 'thumbprint' }]],
  ])('refuses a cnf claim it cannot check: %s', async (_, cnf) => {
    const token = await signToken(rsa, { claims: { cnf } });
    await expect(verify(token)).rejects.toThrow(
      new InvalidAccessTokenError(
        'The access token is bound to a key in a way this API cannot check: only cnf.jkt (DPoP) is supported.',
      ),
    );
  });

  it.each(['abc', 'a.b', 'a.b.c', '..'])('refuses the malformed token %j', async (token) => {
    await expect(verify(token)).rejects.toThrow(errors.JOSEError);
  });
});

describe('requireAccessToken', () => {
  const publicOrigin = 'https://api.example.com';
  let dpopKey: DPoPKey;
  beforeAll(async () => {
    dpopKey = await createDPoPKey();
  });

  /** `GET /me` behind the middleware, answering the caller's sub. */
  function protectedApp(options: Partial<RequireAccessTokenOptions> = {}) {
    const app = new Hono<ApiEnv>();
    app.use(
      '*',
      requireAccessToken({ issuer, audience, keys: localKeys(rsa), publicOrigin, ...options }),
    );
    app.get('/me', (c) => c.json({ sub: c.var.accessToken.sub }));
    return app;
  }

  const boundToken = () => signToken(rsa, { claims: { cnf: { jkt: dpopKey.jkt } } });

  async function dpopHeaders(token: string, htu: string, claims: Record<string, unknown> = {}) {
    return {
      Authorization: `DPoP ${token}`,
      DPoP: await signProof(dpopKey, htu, token, { claims }),
    };
  }

  it('checks htu against the public origin, not against the Host the client sent', async () => {
    // @hono/node-server builds the request URL from the Host header, which the client chooses:
    // a proof made for another API must not pass by naming that API's host.
    const token = await boundToken();
    const response = await protectedApp().request('http://other-api.example/me', {
      headers: await dpopHeaders(token, 'http://other-api.example/me'),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'invalid_dpop_proof',
      error_description: 'The DPoP proof is for another URL.',
    });
  });

  it('accepts a proof for the public origin behind a TLS-terminating proxy', async () => {
    const token = await boundToken();
    const response = await protectedApp().request('http://10.0.0.5:4001/me?page=2', {
      headers: await dpopHeaders(token, `${publicOrigin}/me`),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sub: 'user-1' });
  });

  it('refuses a proof for the public origin but another path', async () => {
    const token = await boundToken();
    const response = await protectedApp().request('http://10.0.0.5:4001/me', {
      headers: await dpopHeaders(token, `${publicOrigin}/admin/stats`),
    });
    expect(response.status).toBe(401);
  });

  it.each([
    ['a number jkt', { jkt: 42 }],
    ['an empty jkt', { jkt: '' }],
    ['a certificate binding only', { 'x5t#S256': 'abc' }],
  ])('refuses a token with %s in cnf, rather than taking it as a bearer token', async (_, cnf) => {
    const token = await signToken(rsa, { claims: { cnf } });
    const response = await protectedApp().request('/me', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description:
        'The access token is bound to a key in a way this API cannot check: only cnf.jkt (DPoP) is supported.',
    });
  });

  it('refuses a proof sent a second time with an injected clock, its default replay cache on that clock', async () => {
    const now = () => Date.now() - 10 * 60_000;
    const app = protectedApp({ now });
    const token = await boundToken();
    const headers = await dpopHeaders(token, `${publicOrigin}/me`, {
      iat: Math.floor(now() / 1000),
    });
    expect((await app.request('/me', { headers })).status).toBe(200);
    const replayed = await app.request('/me', { headers });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({
      error: 'invalid_dpop_proof',
      error_description: 'The DPoP proof was used before.',
    });
  });

  describe('challenges in the scheme the request used (RFC 9449 §7.1)', () => {
    const algs = 'algs="ES256 RS256 PS256 EdDSA Ed25519"';

    it('answers a refused token sent with the DPoP scheme, with a valid proof, with a DPoP challenge', async () => {
      const expired = await signToken(rsa, {
        claims: { cnf: { jkt: dpopKey.jkt }, exp: Math.floor(Date.now() / 1000) - 60 },
      });
      const response = await protectedApp().request('/me', {
        headers: await dpopHeaders(expired, `${publicOrigin}/me`),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `DPoP error="invalid_token", error_description="The access token has expired.", ${algs}`,
      );
      expect(await response.json()).toEqual({
        error: 'invalid_token',
        error_description: 'The access token has expired.',
      });
    });

    it('answers a malformed DPoP Authorization header with a DPoP challenge', async () => {
      const response = await protectedApp().request('/me', {
        headers: { Authorization: `DPoP  ${await boundToken()}` },
      });
      expect(response.headers.get('www-authenticate')).toBe(
        `DPoP error="invalid_token", error_description="The Authorization header is malformed.", ${algs}`,
      );
    });

    it('still answers a refused token sent with the Bearer scheme with a Bearer challenge', async () => {
      const expired = await signToken(rsa, { claims: { exp: Math.floor(Date.now() / 1000) - 60 } });
      const response = await protectedApp().request('/me', {
        headers: { Authorization: `Bearer ${expired}` },
      });
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer error="invalid_token", error_description="The access token has expired."',
      );
    });

    it.each([
      ['no Authorization header', {}, 'No access token was sent.'],
      [
        'another scheme',
        { Authorization: 'Basic dXNlcjpwYXNz' },
        'The Authorization header must use the Bearer or DPoP scheme.',
      ],
    ])('offers both schemes to a request with %s', async (_, headers, description) => {
      const response = await protectedApp().request('/me', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description="${description}", DPoP ${algs}`,
      );
      expect(await response.json()).toEqual({
        error: 'invalid_token',
        error_description: description,
      });
    });
  });

  it.each(['api.example.com', 'ftp://api.example.com', 'https://api.example.com/v1'])(
    'refuses the public origin %j, saying what to pass',
    (value) => {
      expect(() => protectedApp({ publicOrigin: value })).toThrow(
        `publicOrigin must be the origin clients call this API at, such as https://api.example.com, got ${JSON.stringify(value)}`,
      );
    },
  );
});
