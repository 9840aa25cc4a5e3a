import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import type { ApiEnv } from './apiEnv';
import { requireScope } from './requireScope';
import type { VerifiedAccessToken } from './verifyAccessToken';

// The middleware alone, behind a stand-in for requireAccessToken; through the whole API (signed
// tokens, hostile claims) in createApi.test.ts and createApi.dpop.test.ts.

/** An app whose one route needs `needed`, reached by a caller whose verified token has `scope`. */
function appFor(needed: string, scope: unknown, jkt: string | null = null) {
  const handler = vi.fn(() => new Response('ok'));
  const accessToken = { sub: 'alice', name: null, roles: [], scope, jkt, claims: { scope } };
  const app = new Hono<ApiEnv>()
    .use('*', async (c, next) => {
      // `scope` as any value: the middleware must hold even if a caller set a non-string.
      c.set('accessToken', accessToken as unknown as VerifiedAccessToken);
      await next();
    })
    .get('/orders', requireScope(needed), handler);
  return { request: () => app.request('/orders'), handler };
}

describe('requireScope', () => {
  it.each([
    ['the one scope', 'read'],
    ['one of several', 'openid read write'],
    ['the first of several', 'read write'],
    ['runs of spaces around it', '  write   read '],
  ])('lets through a token with %s', async (_, scope) => {
    const { request, handler } = appFor('read', scope);
    const response = await request();
    expect(response.status).toBe(200);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a longer scope that starts with it', 'readonly'],
    ['a scope that ends with it', 'unread'],
    ['a scope with it after a colon', 'orders:read'],
    ['another case', 'READ'],
    ['other scopes', 'openid write'],
    ['an empty scope', ''],
    ['only spaces', '   '],
    ['a tab inside a word', 'openid\tread'],
    ['no scope claim', undefined],
    ['an array holding it', ['read']],
    ['a number', 7],
    ['null', null],
    ['an object', { toString: () => 'read' }],
  ])('answers 403 to a token with %s', async (_, scope) => {
    const { request, handler } = appFor('read', scope);
    const response = await request();
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="The read scope is required.", scope="read"',
    );
    expect(await response.json()).toEqual({
      error: 'insufficient_scope',
      error_description: 'The read scope is required.',
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('challenges a DPoP-bound token in the DPoP scheme, naming the scope', async () => {
    const { request, handler } = appFor('orders:write', 'orders:read', 'thumbprint');
    const response = await request();
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'DPoP error="insufficient_scope", error_description="The orders:write scope is required.", scope="orders:write", algs="ES256 RS256 PS256 EdDSA Ed25519"',
    );
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([
    ['an empty name', ''],
    ['two scopes', 'read write'],
    ['a quote', 'read"'],
    ['a backslash', 'read\\'],
    ['a line break', 'read\r\nX-Injected: 1'],
    ['a character outside ASCII', 'lecture:écrire'],
  ])('refuses %s when the API is built, not on a request', (_, scope) => {
    expect(() => requireScope(scope)).toThrow(
      new TypeError(
        `requireScope: unusable scope ${JSON.stringify(scope)}: one scope-token (RFC 6749 §3.3), e.g. 'orders:read'; chain requireScope for several.`,
      ),
    );
  });

  it('takes any scope-token RFC 6749 allows', () => {
    expect(() => requireScope('https://api.example.com/orders.read')).not.toThrow();
    expect(() => requireScope("a!#$%&'()*+,-./:;<=>?@[]^_`{|}~")).not.toThrow();
  });
});
