import { describe, expect, it, vi } from 'vitest';
import { me } from './handlers';
import { bearer, setUpTestApi } from './testApi';
import { appOrigin, createTestKey, signToken } from './testSupport';

// CORS: the app's origins only, and what it may send and read.

// Every handler is a spy that runs the real one: a refused request must reach none of them.
vi.mock('./handlers', { spy: true });

const key = await createTestKey('RS256');
const { api } = setUpTestApi(key);

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

  it('allows the methods of every endpoint, one added after the GETs included', async () => {
    // A POST endpoint left out of the preflight's methods fails in the browser as a network error
    // (TypeError: Failed to fetch) before the request is sent, not with a status.
    const app = api();
    app.post('/invoices', (c) => c.json({ created: true }, 201));
    const response = await app.request('/invoices', {
      method: 'OPTIONS',
      headers: { Origin: appOrigin, 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(list(response.headers.get('access-control-allow-methods'))).toEqual(['GET', 'POST']);
  });

  it('allows every method Hono routes by name for an endpoint added with app.all()', async () => {
    // app.all() registers the method ALL, as middleware does: the endpoint still answers a PUT.
    const app = api();
    app.all('/invoices', (c) => c.json({ method: c.req.method }));
    const response = await app.request('/invoices', {
      method: 'OPTIONS',
      headers: { Origin: appOrigin, 'Access-Control-Request-Method': 'PUT' },
    });
    expect(response.status).toBe(204);
    expect(list(response.headers.get('access-control-allow-methods'))).toEqual([
      'GET',
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'QUERY',
    ]);
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

  it('allows each of several configured origins, and no other', async () => {
    const origins = ['https://app.example.com', 'https://preview.example.com'];
    const app = api({ appOrigin: origins });
    for (const origin of origins) {
      const response = await app.request('/health', { headers: { Origin: origin } });
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const other = await app.request('/health', { headers: { Origin: appOrigin } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
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
