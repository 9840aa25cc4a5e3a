import type { JWTVerifyGetKey } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { adminStats, me } from './handlers';
import { bearer, setUpTestApi } from './testApi';
import { createTestKey, signToken } from './testSupport';

// The endpoints' answers; refusals, DPoP, CORS and the provider's keys are in createApi.*.test.ts.

// Every handler is a spy that runs the real one: a refused request must reach none of them.
vi.mock('./handlers', { spy: true });

const key = await createTestKey('RS256');
const suite = setUpTestApi(key);
const { api } = suite;

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
    expect(suite.logger.errors).toEqual([['reference API: GET /me failed', bug]]);
    expect(me).not.toHaveBeenCalled();
  });
});
