import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { adminStats, me } from './handlers';
import { bearer, invalidTokenChallenge, protectedPaths, setUpTestApi } from './testApi';
import { audience, createTestKey, issuer, signToken, unsignedToken } from './testSupport';

// Every request without a usable token gets 401 and reaches no handler.

// Every handler is a spy that runs the real one: a refused request must reach none of them.
vi.mock('./handlers', { spy: true });

// impostor: same kid as `key`, another key pair, what a forger without the provider's key can
// sign with. stranger: a key the provider does not publish.
const [key, impostor, stranger] = await Promise.all([
  createTestKey('RS256'),
  createTestKey('RS256', 'key-RS256'),
  createTestKey('ES256', 'other'),
]);
const { api } = setUpTestApi(key);

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

  // Every endpoint (read from the routes, so a new one is covered), and an unknown path below.
  describe.each(protectedPaths())('on %s', (path) => {
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
