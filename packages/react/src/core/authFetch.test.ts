import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';

let harness: Harness;
afterEach(() => harness?.dispose());

async function signedIn() {
  harness = createHarness();
  const { client } = await harness.signIn(harness.createClient());
  return client;
}

function apiCalls() {
  return harness.provider.requests.filter((request) => request.endpoint === 'api');
}

describe('authFetch', () => {
  test('sends the access token to a configured API origin, in the header only', async () => {
    const client = await signedIn();
    const response = await client.fetch(`${harness.provider.apiOrigin}/me?x=1`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sub: 'alice' });
    const [call] = apiCalls();
    expect(call?.authorization).toBe(`Bearer ${client.getSnapshot().user?.access_token}`);
    expect(call?.url).toBe(`${harness.provider.apiOrigin}/me?x=1`);
  });

  test('never sends the token to another origin, the provider included', async () => {
    const client = await signedIn();
    await client.fetch(`${harness.provider.issuer}/.well-known/openid-configuration`);
    await client.fetch('https://api.example.test.evil.example/me');
    const sent = harness.provider.requests.slice(-2);
    expect(sent.map((request) => request.authorization)).toEqual([null, null]);
  });

  test('a relative URL resolves against the document’s base URL (`<base href>`), as fetch resolves it', async () => {
    const client = await signedIn();
    const base = document.createElement('base');
    base.href = `${harness.provider.apiOrigin}/v1/`;
    document.head.append(base);
    try {
      const response = await client.fetch('me');
      expect(response.status).toBe(200);
    } finally {
      base.remove();
    }
    const [call] = apiCalls();
    expect(call?.url).toBe(`${harness.provider.apiOrigin}/v1/me`);
    expect(call?.authorization).toBe(`Bearer ${client.getSnapshot().user?.access_token}`);
  });

  test('keeps the caller’s method, headers and body', async () => {
    const client = await signedIn();
    await client.fetch(`${harness.provider.apiOrigin}/items`, {
      method: 'POST',
      headers: { 'X-Trace': '7' },
      body: 'name=widget',
    });
    const [call] = apiCalls();
    expect(call?.method).toBe('POST');
    expect(call?.body?.get('name')).toBe('widget');
  });

  test('a request made while the page restores the stored session (the first render) carries its token', async () => {
    harness = createHarness();
    const { storage, token } = await harness.storedSession();
    const client = harness.createClient({ storage });
    void client.start();
    expect(client.getSnapshot().status).toBe('loading');
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(apiCalls()[0]?.authorization).toBe(`Bearer ${token}`);
    expect(await client.getAccessToken()).toBe(token);
  });

  test('sends no token when signed out', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(401);
    expect(apiCalls()[0]?.authorization).toBeNull();
  });

  test('on a 401 renews once and retries once, with the new token', async () => {
    const client = await signedIn();
    await passTokenFloor();
    harness.provider.expireAccessTokens();
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(harness.provider.count('refresh')).toBe(1);
    const [first, retry] = apiCalls();
    expect(first?.authorization).not.toBe(retry?.authorization);
    expect(retry?.authorization).toBe(`Bearer ${client.getSnapshot().user?.access_token}`);
  });

  test('50 concurrent calls that get a 401 cause exactly one renewal', async () => {
    const client = await signedIn();
    await passTokenFloor();
    harness.provider.expireAccessTokens();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        client.fetch(`${harness.provider.apiOrigin}/n/${index}`),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(harness.provider.count('refresh')).toBe(1);
    expect(apiCalls()).toHaveLength(100);
  });

  test('a 401 after the retry is returned to the caller; the session is kept', async () => {
    const client = await signedIn();
    await passTokenFloor();
    const realFetch = harness.provider.fetch;
    const alwaysUnauthorized = (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.url.startsWith(harness.provider.apiOrigin)) {
        return Promise.resolve(new Response('{"error":"insufficient_scope"}', { status: 401 }));
      }
      return realFetch(request);
    };
    vi.stubGlobal('fetch', alwaysUnauthorized);
    const response = await client.fetch(`${harness.provider.apiOrigin}/admin`);
    expect(response.status).toBe(401);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('an API that keeps answering 401 to a fresh token gets its 401 back, not a renewal per call', async () => {
    const client = await signedIn();
    const realFetch = harness.provider.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.url.startsWith(harness.provider.apiOrigin)) {
        return Promise.resolve(new Response(null, { status: 401 }));
      }
      return realFetch(request);
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    await passTokenFloor();
    try {
      // An app that polls the API every 15 s (past the 10 s floor between token requests).
      for (let call = 0; call < 4; call += 1) {
        expect((await client.fetch(`${harness.provider.apiOrigin}/poll`)).status).toBe(401);
        vi.setSystemTime(Date.now() + 15_000);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(harness.provider.count('refresh')).toBe(1);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('a 401 under 10 s after a renewal is returned as is: no second request with the same token', async () => {
    const client = await signedIn();
    vi.useFakeTimers({ toFake: ['Date'] });
    await passTokenFloor();
    try {
      await client.renew();
      expect(harness.provider.count('refresh')).toBe(1);
      const realFetch = harness.provider.fetch;
      const sent: (string | null)[] = [];
      vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (!request.url.startsWith(harness.provider.apiOrigin)) return realFetch(request);
        sent.push(request.headers.get('Authorization'));
        return Promise.resolve(new Response(null, { status: 401 }));
      });
      // The renewal this 401 asks for is held back by the 10 s floor: the token stays the same.
      vi.setSystemTime(Date.now() + 2_000);
      expect((await client.fetch(`${harness.provider.apiOrigin}/me`)).status).toBe(401);
      expect(sent).toEqual([`Bearer ${client.getSnapshot().user?.access_token}`]);
      expect(harness.provider.count('refresh')).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a renewed token the API took, refused later on, is renewed again', async () => {
    const client = await signedIn();
    vi.useFakeTimers({ toFake: ['Date'] });
    await passTokenFloor();
    try {
      for (let round = 1; round <= 2; round += 1) {
        harness.provider.expireAccessTokens();
        expect((await client.fetch(`${harness.provider.apiOrigin}/me`)).status).toBe(200);
        expect(harness.provider.count('refresh')).toBe(round);
        vi.setSystemTime(Date.now() + 15_000);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  test('when renewal says the session is over, returns the 401 and the client signs out', async () => {
    const client = await signedIn();
    await passTokenFloor();
    harness.provider.expireAccessTokens();
    harness.provider.revokeAllGrants();
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(401);
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('session_expired');
  });

  test('honours an AbortSignal, before sending and while renewing', async () => {
    const client = await signedIn();
    await passTokenFloor();
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      client.fetch(`${harness.provider.apiOrigin}/me`, { signal: aborted.signal }),
    ).rejects.toThrow();
    expect(apiCalls()).toHaveLength(0);

    harness.provider.expireAccessTokens();
    harness.provider.options.tokenDelay = 200;
    const controller = new AbortController();
    const pending = client.fetch(`${harness.provider.apiOrigin}/me`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(apiCalls()).toHaveLength(1);
  });

  test('an abort while a slow renewal runs rejects at once, not when the renewal ends', async () => {
    const client = await signedIn();
    await passTokenFloor();
    harness.provider.expireAccessTokens();
    harness.provider.options.tokenDelay = 3_000;
    const controller = new AbortController();
    const started = Date.now();
    const pending = client.fetch(`${harness.provider.apiOrigin}/me`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(apiCalls()).toHaveLength(1);
  });

  test('renews before sending when the token is about to expire', async () => {
    harness = createHarness({ accessTokenTtl: 14 });
    const { client } = await harness.signIn(harness.createClient());
    await passTokenFloor(); // 3 s left
    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(apiCalls()).toHaveLength(1);
  });
});

describe('authFetch to an origin outside apiOrigins', () => {
  test('warns once per origin in development, naming the origin and the setting', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = await signedIn();
    await client.fetch('https://other.example/a');
    await client.fetch('https://other.example/b');
    await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('https://other.example');
    expect(String(warn.mock.calls[0]?.[0])).toContain('apiOrigins');
    await client.fetch('https://third.example/c');
    expect(warn).toHaveBeenCalledTimes(2);
    // The request still goes out, without a token.
    expect(harness.provider.requests.at(-1)?.authorization).toBeNull();
  });

  test('stays silent in production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = await signedIn();
    await client.fetch('https://other.example/a');
    expect(warn).not.toHaveBeenCalled();
  });
});
