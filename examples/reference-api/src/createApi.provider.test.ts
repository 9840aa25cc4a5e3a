import { createRemoteJWKSet, SignJWT } from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me } from './handlers';
import { bearer, setUpTestApi } from './testApi';
import {
  appOrigin,
  audience,
  closedPort,
  createTestKey,
  signToken,
  startTestProvider,
  unsignedToken,
} from './testSupport';
import type { TestProvider } from './testSupport';

// The provider's keys: 503 while they cannot be fetched, and a key rotation.

// Every handler is a spy that runs the real one: a refused request must reach none of them.
vi.mock('./handlers', { spy: true });

const key = await createTestKey('RS256');
const suite = setUpTestApi(key);
const { api } = suite;

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
    expect(suite.logger.warnings).toHaveLength(1);
    expect(suite.logger.warnings[0]).toMatch(/^reference API: cannot verify tokens, no keys/);
  }

  it("answers 503 when jose's remote JWKS is on a closed port", async () => {
    const jwks = createRemoteJWKSet(new URL(`http://127.0.0.1:${await closedPort()}/jwks`));
    const response = await api({ jwks }).request('/me', { headers: bearer(await signToken(key)) });
    await expect503(response);
    expect(suite.logger.warnings[0]).toMatch(/fetch failed/);
  });

  it('answers 503 when discovery finds nothing listening at the issuer', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const token = await signToken(key, { claims: { iss: closed } });
    const response = await api({ issuer: closed, jwks: undefined }).request('/me', {
      headers: bearer(token),
    });
    await expect503(response);
    expect(suite.logger.warnings[0]).toContain(
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
        const token = await new SignJWT({
          iss: provider.issuer,
          aud: audience,
          sub: signer.kid,
          scope: 'openid',
        })
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
