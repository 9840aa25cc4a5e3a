import { createRemoteJWKSet, SignJWT } from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from './createApi';
import type { CreateApiOptions } from './createApi';
import type * as Handlers from './handlers';
import { adminStats, me } from './handlers';
import {
  appOrigin,
  audience,
  closedPort,
  createDPoPKey,
  createTestKey,
  issuer,
  localKeys,
  publicOrigin,
  recordingLogger,
  signProof,
  signToken,
  startTestProvider,
  unsignedToken,
} from './testSupport';
import type { DPoPKey, TestKey, TestProvider } from './testSupport';

// The real handlers, wrapped in spies: a refused request must never reach one.
vi.mock('./handlers', async (importOriginal) => {
  const real = await importOriginal<typeof Handlers>();
  return { ...real, me: vi.fn(real.me), adminStats: vi.fn(real.adminStats) };
});

let key: TestKey;
/** Same kid as `key`, another key pair: what a forger without the provider's key can sign with. */
let impostor: TestKey;
/** A key the provider does not publish. */
let stranger: TestKey;
let logger: ReturnType<typeof recordingLogger>;

beforeAll(async () => {
  [key, impostor, stranger] = await Promise.all([
    createTestKey('RS256'),
    createTestKey('RS256', 'key-RS256'),
    createTestKey('ES256', 'other'),
  ]);
});

beforeEach(() => {
  vi.mocked(me).mockClear();
  vi.mocked(adminStats).mockClear();
  logger = recordingLogger();
});

function api(options: Partial<CreateApiOptions> = {}) {
  return createApi({
    issuer,
    audience,
    appOrigin,
    publicOrigin,
    jwks: localKeys(key),
    logger,
    ...options,
  });
}

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

const invalidTokenChallenge = /^Bearer error="invalid_token", error_description="[^"\\]+"$/;

describe('GET /health', () => {
  it('answers ok without a token', async () => {
    const response = await api().request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /me', () => {
  it("answers the token's sub, name, roles and scope", async () => {
    const token = await signToken(key, {
      claims: { sub: 'alice', name: 'Alice', roles: ['user'], scope: 'openid profile roles' },
    });
    const response = await api().request('/me', { headers: bearer(token) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      sub: 'alice',
      name: 'Alice',
      roles: ['user'],
      scope: 'openid profile roles',
    });
    expect(me).toHaveBeenCalledTimes(1);
  });

  it('answers name null and roles [] when the token has neither', async () => {
    const token = await signToken(key, { claims: { sub: 'bob', scope: 'openid' } });
    const response = await api().request('/me', { headers: bearer(token) });
    expect(await response.json()).toEqual({ sub: 'bob', name: null, roles: [], scope: 'openid' });
  });
});

describe('a request without a usable token', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, () => Promise<RequestInit & { query?: string }>, string][] = [
    [
      'an empty Bearer',
      async () => ({ headers: { Authorization: 'Bearer' } }),
      'The Authorization header is malformed.',
    ],
    [
      'Bearer and extra spaces',
      async () => ({ headers: { Authorization: `Bearer   ${await signToken(key)}` } }),
      'The Authorization header is malformed.',
    ],
    [
      'a token that is not a JWT',
      async () => ({ headers: bearer('not-a-jwt') }),
      'The access token is malformed.',
    ],
    [
      'an expired token',
      async () => ({ headers: bearer(await signToken(key, { claims: { exp: now() - 60 } })) }),
      'The access token has expired.',
    ],
    [
      'a token signed by another key with the same kid',
      async () => ({ headers: bearer(await signToken(impostor)) }),
      'The access token signature could not be verified.',
    ],
    [
      'a token signed by an unknown key',
      async () => ({ headers: bearer(await signToken(stranger)) }),
      'The access token signature could not be verified.',
    ],
    [
      'an alg none token',
      async () => ({ headers: bearer(unsignedToken({ roles: ['admin'] })) }),
      'The access token algorithm is not allowed.',
    ],
    [
      "an HS256 token whose secret is the provider's public key (algorithm confusion)",
      async () => {
        const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
        const token = await new SignJWT({ iss: issuer, aud: audience, sub: 'admin' })
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid })
          .setExpirationTime('5m')
          .sign(secret);
        return { headers: bearer(token) };
      },
      'The access token algorithm is not allowed.',
    ],
    [
      'a token from another issuer',
      async () => ({ headers: bearer(await signToken(key, { claims: { iss: 'http://evil' } })) }),
      'The access token was issued by another issuer.',
    ],
    [
      'a token for another audience',
      async () => ({ headers: bearer(await signToken(key, { claims: { aud: 'reference-app' } })) }),
      'The access token is not for this API.',
    ],
    [
      'a token without typ at+jwt or JWT',
      async () => ({ headers: bearer(await signToken(key, { header: { typ: 'dpop+jwt' } })) }),
      'The access token has an unexpected typ.',
    ],
    [
      'a token in the query string',
      async () => ({ query: `?access_token=${await signToken(key)}` }),
      'Access tokens are not accepted in the URL.',
    ],
    [
      'a token in the query string beside a good header',
      async () => ({
        query: `?access_token=${await signToken(key)}`,
        headers: bearer(await signToken(key)),
      }),
      'Access tokens are not accepted in the URL.',
    ],
  ];

  // No Bearer or DPoP credentials: both schemes are offered (RFC 9449 §7.1).
  const withoutCredentials: [string, RequestInit, string][] = [
    ['no Authorization header', {}, 'No access token was sent.'],
    [
      'the Basic scheme',
      { headers: { Authorization: 'Basic dXNlcjpwYXNz' } },
      'The Authorization header must use the Bearer or DPoP scheme.',
    ],
  ];

  describe.each(['/me', '/admin/stats'])('on %s', (path) => {
    it.each(withoutCredentials)(
      'gets 401 invalid_token with Bearer and DPoP challenges for %s',
      async (_, init, description) => {
        const response = await api().request(path, init);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe(
          `Bearer error="invalid_token", error_description="${description}", DPoP algs="ES256 RS256 PS256 EdDSA Ed25519"`,
        );
        expect(await response.json()).toEqual({
          error: 'invalid_token',
          error_description: description,
        });
        expect(me).not.toHaveBeenCalled();
        expect(adminStats).not.toHaveBeenCalled();
      },
    );

    it.each(cases)('gets 401 invalid_token for %s', async (_, request, description) => {
      const { query = '', ...init } = await request();
      const response = await api().request(`${path}${query}`, init);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(invalidTokenChallenge);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", error_description="${description}"`,
      );
      expect(await response.json()).toEqual({
        error: 'invalid_token',
        error_description: description,
      });
      expect(me).not.toHaveBeenCalled();
      expect(adminStats).not.toHaveBeenCalled();
    });
  });

  it('gets 401, not 404, on an unknown path, so routes cannot be probed without a token', async () => {
    const response = await api().request('/secret');
    expect(response.status).toBe(401);
    const withToken = await api().request('/secret', { headers: bearer(await signToken(key)) });
    expect(withToken.status).toBe(404);
    expect(await withToken.json()).toEqual({
      error: 'not_found',
      error_description: 'No such endpoint.',
    });
  });
});

describe('GET /admin/stats', () => {
  it("answers an admin with the API's own usage figures", async () => {
    let clock = 1_000_000;
    const app = api({ now: () => clock });
    const admin = await signToken(key, { claims: { sub: 'ada', roles: ['admin'] } });
    const user = await signToken(key, { claims: { sub: 'bob', roles: ['user'] } });

    let response = await app.request('/admin/stats', { headers: bearer(admin) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      distinctUsers: 1,
      authenticatedRequests: 1,
      uptimeSeconds: 0,
    });

    await app.request('/me', { headers: bearer(user) });
    await app.request('/me', { headers: bearer(user) });
    await app.request('/me'); // refused: not counted
    clock += 42_500;
    response = await app.request('/admin/stats', { headers: bearer(admin) });
    expect(await response.json()).toEqual({
      distinctUsers: 2,
      authenticatedRequests: 4,
      uptimeSeconds: 42,
    });
    expect(adminStats).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['no roles claim', {}],
    ['other roles', { roles: ['user', 'Admin'] }],
    ['an admin string instead of an array', { roles: 'admin' }],
  ])('answers 403 insufficient_scope to a token with %s', async (_, claims) => {
    const token = await signToken(key, { claims });
    const response = await api().request('/admin/stats', { headers: bearer(token) });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="The admin role is required."',
    );
    expect(await response.json()).toEqual({
      error: 'insufficient_scope',
      error_description: 'The admin role is required.',
    });
    expect(adminStats).not.toHaveBeenCalled();
  });
});

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
      expect(logger.errors).toHaveLength(1);
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

describe('CORS', () => {
  const preflight = (origin: string) =>
    api().request('/me', {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
  const list = (value: string | null) => value?.split(',').map((item) => item.trim());

  it("answers a preflight from the app's origin", async () => {
    const response = await preflight(appOrigin);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(list(response.headers.get('access-control-allow-headers'))).toEqual([
      'Authorization',
      'Content-Type',
      'DPoP',
    ]);
    expect(list(response.headers.get('access-control-allow-methods'))).toEqual(['GET']);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/Origin/);
    expect(me).not.toHaveBeenCalled();
  });

  it('gives no Access-Control-Allow-Origin to a preflight from another origin', async () => {
    const response = await preflight('http://evil.example');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("lets the app's origin read answers, refusals and their WWW-Authenticate included", async () => {
    const ok = await api().request('/me', {
      headers: { Origin: appOrigin, ...bearer(await signToken(key)) },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe(appOrigin);
    const refused = await api().request('/me', { headers: { Origin: appOrigin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(list(refused.headers.get('access-control-expose-headers'))).toEqual([
      'WWW-Authenticate',
      'DPoP-Nonce',
      'Retry-After',
    ]);
  });

  it('gives no Access-Control-Allow-Origin to a request from another origin', async () => {
    for (const origin of ['http://evil.example', 'http://localhost:5174', 'null']) {
      const response = await api().request('/me', {
        headers: { Origin: origin, ...bearer(await signToken(key)) },
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('allows the configured origin only', async () => {
    const app = api({ appOrigin: 'https://app.example.com' });
    const response = await app.request('/health', { headers: { Origin: appOrigin } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const allowed = await app.request('/health', {
      headers: { Origin: 'https://app.example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });
});

describe('when the provider cannot be reached', () => {
  let provider: TestProvider | undefined;

  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  async function expect503(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(await response.json()).toEqual({
      error: 'provider_unavailable',
      error_description:
        'The identity provider could not be reached to verify the token. Try again.',
    });
    expect(me).not.toHaveBeenCalled();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/^reference API: cannot verify tokens, no keys/);
  }

  it("answers 503 when jose's remote JWKS is on a closed port", async () => {
    const jwks = createRemoteJWKSet(new URL(`http://127.0.0.1:${await closedPort()}/jwks`));
    const response = await api({ jwks }).request('/me', { headers: bearer(await signToken(key)) });
    await expect503(response);
    expect(logger.warnings[0]).toMatch(/fetch failed/);
  });

  it('answers 503 when discovery finds nothing listening at the issuer', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const token = await signToken(key, { claims: { iss: closed } });
    const response = await api({ issuer: closed, jwks: undefined }).request('/me', {
      headers: bearer(token),
    });
    await expect503(response);
    expect(logger.warnings[0]).toContain(
      `could not fetch ${closed}/.well-known/openid-configuration`,
    );
  });

  it.each([
    ['answers 500', 500],
    ['answers 404', 404],
    ['does not answer JSON', 'not-json' as const],
    ['does not answer in time', 'hang' as const],
  ])('answers 503 when the JWKS endpoint %s', async (_, mode) => {
    provider = await startTestProvider(key);
    provider.behaviour.jwks = mode;
    const token = await signToken(key, { claims: { iss: provider.issuer } });
    const app = api({ issuer: provider.issuer, jwks: undefined, jwksTimeoutMs: 300 });
    await expect503(await app.request('/me', { headers: bearer(token) }));
    expect(provider.requests).toEqual(['GET /.well-known/openid-configuration', 'GET /jwks']);
  });

  it.each([
    ['answers 500', { discovery: 502 }],
    ['does not answer in time', { discovery: 'hang' }],
    ['names another issuer', { document: { issuer: 'http://127.0.0.1:1' } }],
    ['has no jwks_uri', { document: { jwks_uri: undefined } }],
  ] as const)('answers 503 when the discovery document %s', async (_, behaviour) => {
    provider = await startTestProvider(key);
    Object.assign(provider.behaviour, behaviour);
    const token = await signToken(key, { claims: { iss: provider.issuer } });
    const app = api({ issuer: provider.issuer, jwks: undefined, jwksTimeoutMs: 300 });
    await expect503(await app.request('/me', { headers: bearer(token) }));
  });

  it("lets the app's origin read a 503 and its Retry-After, so it can wait and try again", async () => {
    const jwks = createRemoteJWKSet(new URL(`http://127.0.0.1:${await closedPort()}/jwks`));
    const response = await api({ jwks }).request('/me', {
      headers: { Origin: appOrigin, ...bearer(await signToken(key)) },
    });
    await expect503(response);
    expect(response.headers.get('access-control-allow-origin')).toBe(appOrigin);
    // Retry-After is no CORS-safelisted response header: unexposed, the page cannot read it.
    expect(response.headers.get('access-control-expose-headers')?.split(/\s*,\s*/)).toContain(
      'Retry-After',
    );
  });

  it('verifies tokens once the provider is back, without a restart', async () => {
    provider = await startTestProvider(key);
    provider.behaviour.discovery = 503;
    const token = await signToken(key, { claims: { iss: provider.issuer } });
    const app = api({ issuer: provider.issuer, jwks: undefined });
    expect((await app.request('/me', { headers: bearer(token) })).status).toBe(503);
    provider.behaviour.discovery = 'ok';
    const response = await app.request('/me', { headers: bearer(token) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sub: 'user-1' });
  });

  it('still answers 401, without fetching keys, for a token refused before any key is needed', async () => {
    const jwks = vi.fn<JWTVerifyGetKey>(async () => {
      throw new TypeError('fetch failed');
    });
    const response = await api({ jwks }).request('/me', { headers: bearer(unsignedToken()) });
    expect(response.status).toBe(401);
    expect(jwks).not.toHaveBeenCalled();
  });
});

describe('while the provider rotates its key', () => {
  it("answers a token without kid signed by either of the provider's published keys", async () => {
    const next = await createTestKey('RS256', 'next');
    const provider = await startTestProvider(key, next);
    try {
      const app = api({ issuer: provider.issuer, jwks: undefined });
      for (const signer of [key, next]) {
        const token = await new SignJWT({ iss: provider.issuer, aud: audience, sub: signer.kid })
          .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
          .setExpirationTime('5m')
          .sign(signer.privateKey);
        const response = await app.request('/me', { headers: bearer(token) });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ sub: signer.kid });
      }
    } finally {
      await provider.close();
    }
  });
});

describe('an unexpected failure', () => {
  it('answers 500 with a JSON body and logs it, rather than 401 or a crash', async () => {
    const bug = new Error('a bug in the key source');
    const jwks: JWTVerifyGetKey = async () => {
      throw bug;
    };
    const response = await api({ jwks }).request('/me', { headers: bearer(await signToken(key)) });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'server_error',
      error_description: 'The API failed to answer.',
    });
    expect(logger.errors).toEqual([['reference API: GET /me failed', bug]]);
    expect(me).not.toHaveBeenCalled();
  });
});
