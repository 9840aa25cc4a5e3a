import { request as httpRequest } from 'node:http';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import { startDevProvider, type DevProvider } from './startDevProvider.js';
import { attribute, Browser, type Visit } from './test-support/Browser.js';
import {
  authorizationUrl,
  exchangeCode,
  pkce,
  postForm,
  pressCancel,
  refresh,
  signIn,
  submitLogin,
} from './test-support/oidcFlow.js';

const api = 'http://localhost:4001';
const callback = 'http://localhost:5173/callback';

let provider: DevProvider;
let jwks: ReturnType<typeof createRemoteJWKSet>;

beforeAll(async () => {
  provider = await startDevProvider({
    port: 0,
    quiet: true,
    accessTokenTtl: 10,
    idTokenTtl: 20,
    refreshTokenTtl: 60,
    clients: [
      {
        client_id: 'userinfo-app',
        client_name: 'Userinfo <App>',
        redirect_uris: ['http://localhost:3000/cb'],
        post_logout_redirect_uris: ['http://localhost:3000/bye'],
        access_tokens_for: 'userinfo',
      },
    ],
  });
  jwks = createRemoteJWKSet(new URL(`${provider.issuer}/jwks`));
});

afterAll(async () => {
  await provider?.stop();
});

/** The code exchange of `reference-app`, sent from a page on `origin` (CORS). */
function exchangeFrom(
  origin: string,
  { code, verifier }: { code: string; verifier: string },
  redirectUri: string,
) {
  const body = {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: 'reference-app',
    redirect_uri: redirectUri,
  };
  return postForm(`${provider.issuer}/token`, body, origin);
}

async function signInAndGetTokens(username: string) {
  const { code, verifier, nonce, browser } = await signIn(provider.issuer, { username });
  const tokens = await exchangeCode(provider.issuer, { code, verifier });
  return { tokens, nonce, browser };
}

/** The provider's end-session (RP-initiated logout) URL with `params`. */
function endSessionUrl(params: Record<string, string>): URL {
  const url = new URL(`${provider.issuer}/session/end`);
  url.search = new URLSearchParams(params).toString();
  return url;
}

/** Signs `username` in to `userinfo-app`, a client set up for userinfo tokens. */
async function signInToUserinfoApp(username: string, extra?: Record<string, string>) {
  const client = { clientId: 'userinfo-app', redirectUri: 'http://localhost:3000/cb' };
  const { code, verifier } = await signIn(provider.issuer, { username, ...client, extra });
  return exchangeCode(provider.issuer, { code, verifier, ...client });
}

describe('discovery', () => {
  it('serves the issuer exactly as configured, with the endpoints a public PKCE client needs', async () => {
    expect(provider.issuer).toBe(`http://localhost:${provider.port}`);
    const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(provider.issuer);
    expect(metadata).toMatchObject({
      authorization_endpoint: `${provider.issuer}/auth`,
      token_endpoint: `${provider.issuer}/token`,
      userinfo_endpoint: `${provider.issuer}/me`,
      jwks_uri: `${provider.issuer}/jwks`,
      revocation_endpoint: `${provider.issuer}/token/revocation`,
      end_session_endpoint: `${provider.issuer}/session/end`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'roles', 'offline_access']),
    );
  });

  it('publishes public RSA keys only', async () => {
    const { keys } = (await (await fetch(`${provider.issuer}/jwks`)).json()) as {
      keys: Record<string, unknown>[];
    };
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.kty).toBe('RSA');
      expect(key.d).toBeUndefined();
      expect(key.kid).toEqual(expect.any(String));
    }
  });
});

describe('authorization code flow with PKCE through the login page', () => {
  it('shows an accessible, self-contained login page naming the client', async () => {
    const browser = new Browser(provider.issuer);
    const page = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
    );
    expect(page.response.status).toBe(200);
    expect(page.url.pathname).toMatch(/^\/interaction\/[\w-]+$/);
    expect(page.response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'nonce-[^']+'/);
    expect(csp).toContain("script-src 'none'");
    expect(page.body).toContain('<main>');
    expect(page.body).toMatch(/<h1>Sign in<\/h1>/);
    expect(page.body).toContain('<strong>oidc-kit reference app</strong>');
    expect(page.body).toContain('<label for="username">Username</label>');
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).toMatch(/<input id="username"[^>]*autocomplete="username"/);
    expect(page.body).toMatch(
      /<input id="password"[^>]*type="password"[^>]*autocomplete="current-password"/,
    );
    expect(page.body).toMatch(/<button type="submit" class="primary">Sign in<\/button>/);
    expect(page.body).toMatch(/<button [^>]*formaction="[^"]+\/cancel"[^>]*>Cancel<\/button>/);
    expect(page.body).toContain('Dev accounts: alice / alice, bob / bob');
    expect(page.body).not.toMatch(/<p [^>]*role="alert"/);
    // Nothing is loaded from anywhere: no src/href attributes and no URLs in the stylesheet.
    expect(page.body).not.toMatch(/\s(src|href)=/);
    expect(page.body).not.toMatch(/url\(|@import/);
  });

  it('signs alice in without a consent screen and issues verifiable ID and API access tokens', async () => {
    const { code, verifier, nonce } = await signIn(provider.issuer, { username: 'alice' });
    const tokens = await exchangeCode(provider.issuer, { code, verifier });
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(10);
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const id = await jwtVerify(tokens.id_token, jwks, {
      issuer: provider.issuer,
      audience: 'reference-app',
      algorithms: ['RS256'],
    });
    expect(id.payload).toMatchObject({
      sub: 'alice',
      name: 'Alice Liddell',
      preferred_username: 'alice',
      email: 'alice@example.com',
      email_verified: true,
      roles: ['user'],
      nonce,
    });
    expect(id.payload.exp! - id.payload.iat!).toBe(20);
    expect(id.payload.exp! * 1000).toBeGreaterThan(Date.now());

    const access = await jwtVerify(tokens.access_token, jwks, {
      issuer: provider.issuer,
      audience: api,
      algorithms: ['RS256'],
      typ: 'at+jwt',
    });
    expect(access.payload).toMatchObject({
      sub: 'alice',
      name: 'Alice Liddell',
      client_id: 'reference-app',
      roles: ['user'],
      scope: 'openid profile email',
    });
    expect(access.payload.exp! - access.payload.iat!).toBe(10);
    expect(decodeProtectedHeader(tokens.access_token).kid).toEqual(expect.any(String));
  });

  it("puts bob's admin role in both tokens", async () => {
    const { tokens } = await signInAndGetTokens('bob');
    const id = await jwtVerify(tokens.id_token, jwks, {
      issuer: provider.issuer,
      audience: 'reference-app',
    });
    const access = await jwtVerify(tokens.access_token, jwks, {
      issuer: provider.issuer,
      audience: api,
    });
    expect(id.payload).toMatchObject({ sub: 'bob', name: 'Bob Stone', roles: ['user', 'admin'] });
    expect(access.payload.roles).toEqual(['user', 'admin']);
  });

  it('reuses the session: a second authorization goes straight back to the client', async () => {
    const { browser } = await signIn(provider.issuer, { username: 'alice' });
    const again = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
    );
    expect(again.redirectedTo?.searchParams.get('code')).toBeTruthy();
  });

  it('never shows a consent screen, even for prompt=consent', async () => {
    const { browser } = await signIn(provider.issuer, { username: 'alice' });
    const { verifier, challenge } = pkce();
    const visit = await browser.open(
      authorizationUrl(provider.issuer, { challenge, extra: { prompt: 'consent' } }),
    );
    const code = visit.redirectedTo?.searchParams.get('code');
    expect(code, visit.body).toBeTruthy();
    const tokens = await exchangeCode(provider.issuer, { code: code!, verifier });
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it('also issues the API token when the client names the resource explicitly', async () => {
    const { code, verifier } = await signIn(provider.issuer, {
      username: 'alice',
      extra: { resource: api },
    });
    const tokens = await exchangeCode(provider.issuer, {
      code,
      verifier,
      extra: { resource: api },
    });
    const access = await jwtVerify(tokens.access_token, jwks, {
      issuer: provider.issuer,
      audience: api,
    });
    expect(access.payload.sub).toBe('alice');
  });

  it('gives roles alone for the roles scope', async () => {
    const { code, verifier } = await signIn(provider.issuer, {
      username: 'bob',
      scope: 'openid roles',
    });
    const tokens = await exchangeCode(provider.issuer, { code, verifier });
    const id = await jwtVerify(tokens.id_token, jwks, {
      issuer: provider.issuer,
      audience: 'reference-app',
    });
    expect(id.payload.roles).toEqual(['user', 'admin']);
    expect(id.payload).not.toHaveProperty('email');
    expect(id.payload).not.toHaveProperty('name');
    const access = await jwtVerify(tokens.access_token, jwks, {
      issuer: provider.issuer,
      audience: api,
    });
    expect(access.payload.scope).toBe('openid roles');
  });

  it('refuses another resource', async () => {
    const { challenge } = pkce();
    const visit = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, {
        challenge,
        extra: { resource: 'http://localhost:9999' },
      }),
    );
    expect(visit.redirectedTo?.searchParams.get('error')).toBe('invalid_target');
  });

  it('requires PKCE', async () => {
    const visit = await new Browser(provider.issuer).open(authorizationUrl(provider.issuer, {}));
    expect(visit.redirectedTo?.href.startsWith(callback)).toBe(true);
    expect(visit.redirectedTo?.searchParams.get('error')).toBe('invalid_request');
    expect(visit.redirectedTo?.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses a code with the wrong verifier, and a code used twice', async () => {
    const { code, verifier } = await signIn(provider.issuer, { username: 'alice' });
    const wrong = await postForm(`${provider.issuer}/token`, {
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce().verifier,
      client_id: 'reference-app',
      redirect_uri: callback,
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');

    const { code: code2, verifier: verifier2 } = await signIn(provider.issuer, {
      username: 'alice',
    });
    await exchangeCode(provider.issuer, { code: code2, verifier: verifier2 });
    const replay = await postForm(`${provider.issuer}/token`, {
      grant_type: 'authorization_code',
      code: code2,
      code_verifier: verifier2,
      client_id: 'reference-app',
      redirect_uri: callback,
    });
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    expect(verifier).not.toBe(verifier2);
  });

  it('answers CORS requests from the client origin at the token endpoint', async () => {
    const { code, verifier } = await signIn(provider.issuer, { username: 'alice' });
    const response = await exchangeFrom('http://localhost:5173', { code, verifier }, callback);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });
});

describe('the default client on another loopback port (development: any port, RFC 8252)', () => {
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:4321']) {
    it(`signs in, answers CORS and signs out for an app on ${origin}`, async () => {
      const redirectUri = `${origin}/callback`;
      const { code, verifier, browser } = await signIn(provider.issuer, {
        username: 'alice',
        redirectUri,
      });
      const response = await exchangeFrom(origin, { code, verifier }, redirectUri);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      const tokens = (await response.json()) as { id_token: string };

      const page = await browser.open(
        endSessionUrl({
          id_token_hint: tokens.id_token,
          post_logout_redirect_uri: `${origin}/signed-out`,
          state: 'st',
        }),
      );
      expect(page.response.status).toBeLessThan(400);
    });
  }

  it("takes the app's root as well as /signed-out to return to after sign-out, on any port", async () => {
    for (const [target, accepted] of [
      ['http://localhost:5173/', true],
      ['http://localhost:3000/', true],
      ['http://127.0.0.1:4321/signed-out', true],
      ['http://localhost:5173/elsewhere', false],
    ] as const) {
      const { tokens, browser } = await signInAndGetTokens('alice');
      const page = await browser.open(
        endSessionUrl({
          id_token_hint: tokens.id_token,
          post_logout_redirect_uri: target,
          state: 'st',
        }),
      );
      expect(page.response.status < 400, target).toBe(accepted);
    }
  });

  it('still refuses a redirect URI off the loopback, or on another path', async () => {
    for (const redirectUri of ['http://example.com:5173/callback', 'http://localhost:3000/other']) {
      const visit = await new Browser(provider.issuer).open(
        authorizationUrl(provider.issuer, { redirectUri, challenge: pkce().challenge }),
      );
      expect(visit.redirectedTo, redirectUri).toBeUndefined();
      expect(visit.response.status, redirectUri).toBe(400);
      expect(visit.body).toContain('redirect_uri');
    }
  });
});

// OpenID Connect Core 1.0, section 3.1.2.1: a silent authorization answers at once, with a code
// when the session allows it, with login_required when there is none. Apps renew this way.
describe('prompt=none (silent authorization)', () => {
  it('without a session: login_required, with state, to the redirect URI', async () => {
    const visit = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, {
        challenge: pkce().challenge,
        state: 'silent',
        extra: { prompt: 'none' },
      }),
    );
    expect(visit.redirectedTo?.href.startsWith(`${callback}?`)).toBe(true);
    expect(visit.redirectedTo?.searchParams.get('error')).toBe('login_required');
    expect(visit.redirectedTo?.searchParams.get('state')).toBe('silent');
  });

  it.each([
    ['reference-app', 'reference-app', callback],
    ['reference-app on another loopback port', 'reference-app', 'http://127.0.0.1:4321/callback'],
    ['a client you add', 'userinfo-app', 'http://localhost:3000/cb'],
  ])('with a session: a code for %s, no page shown', async (_label, clientId, redirectUri) => {
    const { browser } = await signIn(provider.issuer, { username: 'alice', clientId, redirectUri });
    const { verifier, challenge } = pkce();
    const visit = await browser.open(
      authorizationUrl(provider.issuer, {
        clientId,
        redirectUri,
        challenge,
        state: 'silent',
        extra: { prompt: 'none' },
      }),
    );
    expect(visit.redirectedTo?.searchParams.get('error')).toBeNull();
    expect(visit.redirectedTo?.searchParams.get('state')).toBe('silent');
    const code = visit.redirectedTo?.searchParams.get('code');
    expect(code).toBeTruthy();
    await exchangeCode(provider.issuer, { code: code!, verifier, clientId, redirectUri });
  });
});

// Browsers do not keep cookies apart by port (RFC 6265, section 8.5): two dev providers on
// localhost, for two apps, see each other's cookies.
describe('two dev providers on one host', () => {
  it('signing in at one keeps the session at the other, both ways', async () => {
    const other = await startDevProvider({ port: 0, quiet: true });
    try {
      const { browser } = await signIn(provider.issuer, { username: 'alice' });
      const sameBrowser = new Browser(other.issuer, browser.jar);
      await signIn(other.issuer, { username: 'bob', browser: sameBrowser });
      for (const [issuer, visitor] of [
        [provider.issuer, browser],
        [other.issuer, sameBrowser],
      ] as const) {
        const visit = await visitor.open(
          authorizationUrl(issuer, {
            challenge: pkce().challenge,
            state: 'silent',
            extra: { prompt: 'none' },
          }),
        );
        expect(visit.redirectedTo?.searchParams.get('error')).toBeNull();
        expect(visit.redirectedTo?.searchParams.get('code')).toBeTruthy();
      }
    } finally {
      await other.stop();
    }
  });
});

// DNS rebinding: a page on another site points its own name at 127.0.0.1 and then talks to the
// provider as that site, same-origin. The Host header still names that site.
/** GET `path` on 127.0.0.1:`port` with the given `Host` (fetch cannot set one) and headers. */
function getWithHost(
  port: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, headers: { host, ...headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('a request for another host name', () => {
  function get(path: string, host: string) {
    return getWithHost(new URL(provider.issuer).port, path, host);
  }

  it.each(['attacker.example', 'attacker.example:4000', '192.168.1.20'])(
    'is refused while the provider listens on loopback only: %s',
    async (host) => {
      const answer = await get('/.well-known/openid-configuration', host);
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('localhost');
      expect(answer.body).not.toContain('token_endpoint');
    },
  );

  it.each(['localhost', '127.0.0.1', '[::1]', 'app.localhost'])(
    'is answered for a loopback name: %s',
    async (name) => {
      const { port } = new URL(provider.issuer);
      const answer = await get('/.well-known/openid-configuration', `${name}:${port}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('token_endpoint');
    },
  );
});

describe('an issuer given as the loopback origin the provider serves itself', () => {
  it('keeps the Host check and trusts no forwarded headers (no proxy is involved)', async () => {
    const probe = await startDevProvider({ port: 0, quiet: true });
    const { port } = new URL(probe.issuer);
    await probe.stop();
    const own = await startDevProvider({
      port: Number(port),
      issuer: `http://localhost:${port}`,
      quiet: true,
    });
    const get = (host: string, headers: Record<string, string> = {}) =>
      getWithHost(port, '/.well-known/openid-configuration', host, headers);
    try {
      expect((await get(`rebound.example.test:${port}`)).status).toBe(403);
      const forwarded = await get(`localhost:${port}`, {
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'attacker.example',
      });
      expect(forwarded.status).toBe(200);
      expect(JSON.parse(forwarded.body).token_endpoint).toMatch(
        new RegExp(`^http://localhost:${port}/`),
      );
    } finally {
      await own.stop();
    }
  });
});

describe('a wrong path', () => {
  it('answers 404 with CORS headers, so an app on another origin sees the status', async () => {
    const response = await fetch(
      `${provider.issuer}/realms/typo/.well-known/openid-configuration`,
      {
        headers: { Origin: 'http://localhost:5173' },
      },
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });
});

describe('login page errors', () => {
  it('refuses a wrong password with an alert and no redirect, then accepts the right one', async () => {
    const browser = new Browser(provider.issuer);
    const { verifier, challenge } = pkce();
    const page = await browser.open(authorizationUrl(provider.issuer, { challenge }));
    const failed = await submitLogin(browser, page, 'alice', 'not-alice');
    expect(failed.response.status).toBe(401);
    expect(failed.response.headers.get('location')).toBeNull();
    expect(failed.redirectedTo).toBeUndefined();
    expect(failed.body).toContain(
      '<p id="login-error" role="alert">Wrong username or password</p>',
    );
    expect(failed.body).toMatch(/<input id="username"[^>]*value="alice"/);
    expect(failed.body).toMatch(/<input id="password"[^>]*aria-invalid="true"/);

    const unknown = await submitLogin(browser, failed, 'mallory', 'mallory');
    expect(unknown.response.status).toBe(401);
    expect(unknown.body).toContain('Wrong username or password');

    const ok = await submitLogin(browser, unknown, 'alice', 'alice');
    const code = ok.redirectedTo?.searchParams.get('code');
    expect(code).toBeTruthy();
    await exchangeCode(provider.issuer, { code: code!, verifier });
  });

  it('escapes what it echoes', async () => {
    const browser = new Browser(provider.issuer);
    const page = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
    );
    const failed = await submitLogin(browser, page, '<script>alert(1)</script>"\'&', 'x');
    expect(failed.body).not.toContain('<script>alert(1)</script>');
    expect(failed.body).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"');
    expect(failed.body).not.toMatch(/<script/);
  });

  it('fills in the username from login_hint, escaped', async () => {
    const page = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, {
        challenge: pkce().challenge,
        extra: { login_hint: 'bob"><script>alert(1)</script>' },
      }),
    );
    expect(page.response.status).toBe(200);
    expect(page.body).toMatch(
      /<input id="username"[^>]*value="bob&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/,
    );
    expect(page.body).not.toMatch(/<script/);
  });

  it('escapes the client name', async () => {
    const page = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, {
        clientId: 'userinfo-app',
        redirectUri: 'http://localhost:3000/cb',
        challenge: pkce().challenge,
      }),
    );
    expect(page.body).toContain('<strong>Userinfo &lt;App&gt;</strong>');
  });

  it('Cancel sends access_denied back to the client', async () => {
    const browser = new Browser(provider.issuer);
    const page = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge, state: 'cancel-state' }),
    );
    const cancelled = await pressCancel(browser, page);
    const back = cancelled.redirectedTo;
    expect(back?.href.startsWith(`${callback}?`)).toBe(true);
    expect(back?.searchParams.get('error')).toBe('access_denied');
    expect(back?.searchParams.get('error_description')).toBe('The user cancelled the sign-in.');
    expect(back?.searchParams.get('state')).toBe('cancel-state');
    expect(back?.searchParams.get('code')).toBeNull();
  });

  it('shows an error page for an interaction without its cookie', async () => {
    const browser = new Browser(provider.issuer);
    const page = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
    );
    const stranger = await new Browser(provider.issuer).open(page.url);
    expect(stranger.response.status).toBe(400);
    expect(stranger.body).toContain('This sign-in has expired or was already completed.');
  });
});

describe('bad authorization requests are never redirected', () => {
  it.each([
    [
      'an unregistered redirect URI',
      { redirectUri: 'http://localhost:5173/elsewhere' },
      'redirect_uri',
    ],
    [
      'a redirect URI differing by a trailing slash',
      { redirectUri: `${callback}/` },
      'redirect_uri',
    ],
    [
      'a redirect URI with an extra query',
      { redirectUri: `${callback}?next=/admin` },
      'redirect_uri',
    ],
    ['an unknown client', { clientId: 'nobody' }, 'invalid_client'],
  ])('shows the error page for %s', async (_label, params, expected) => {
    const visit = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge, ...params }),
    );
    expect(visit.redirectedTo).toBeUndefined();
    expect(visit.response.status).toBe(400);
    expect(visit.response.headers.get('location')).toBeNull();
    expect(visit.response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(visit.body).toContain('<h1>Sign-in error</h1>');
    expect(visit.body).toContain(expected);
  });
});

describe('an unregistered return address or client is named, with how to register it', () => {
  // The terminal: what the provider prints for the developer.
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  /** The error page, and the terminal, name the address `asked` for and an `accepted` one. */
  function expectNamed(page: Visit, heading: string, asked: string, accepted: string): void {
    expect(page.response.status).toBe(400);
    expect(page.body).toContain(`<h1>${heading}</h1>`);
    expect(page.body).toContain(asked);
    expect(page.body).toContain(accepted);
    expect(page.body).toContain('--clients-file');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(asked));
  }

  it('on sign-in: the page and the terminal name the redirect URI asked for and the accepted ones', async () => {
    const redirectUri = 'http://localhost:5173/auth/callback';
    const visit = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, { redirectUri, challenge: pkce().challenge }),
    );
    expectNamed(visit, 'Sign-in error', redirectUri, 'http://localhost:5173/callback');
  });

  // Any page can send the developer's browser here: what it puts in the URL must not reach the
  // terminal as control characters (a cleared screen, a forged "ready at" line).
  it.each([
    [
      'a redirect URI',
      {
        redirectUri:
          'http://localhost:5173/x\u001b[2J\u009b2J\noidc-kit dev provider ready at http://evil',
      },
      '"http://localhost:5173/x\\u001b[2J\\u009b2J\\noidc-kit dev provider',
    ],
    [
      'an unknown client_id',
      { clientId: 'nobody\u009b2J\u001b[2J' },
      '"nobody\\u009b2J\\u001b[2J"',
    ],
  ])(
    'on sign-in: %s with control characters reaches the terminal escaped',
    async (_, asked, escaped) => {
      await new Browser(provider.issuer).open(
        authorizationUrl(provider.issuer, { ...asked, challenge: pkce().challenge }),
      );
      expect(warn).toHaveBeenCalledTimes(1);
      const [line] = warn.mock.calls[0]!;
      expect(line).not.toMatch(/\p{Cc}/u);
      expect(line).toContain(escaped);
    },
  );

  it('on sign-in with an unknown client_id: the page and the terminal name it and the registered ones', async () => {
    const visit = await new Browser(provider.issuer).open(
      authorizationUrl(provider.issuer, { clientId: 'nobody-app', challenge: pkce().challenge }),
    );
    expectNamed(visit, 'Sign-in error', 'nobody-app', 'reference-app');
  });

  it('on sign-out: a sign-out error page names the post-logout redirect URI', async () => {
    const { tokens, browser } = await signInAndGetTokens('alice');
    const target = 'http://localhost:5173/goodbye';
    const page = await browser.open(
      endSessionUrl({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: target,
      }),
    );
    expectNamed(page, 'Sign-out error', target, 'http://localhost:5173/signed-out');
  });
});

describe('refresh tokens', () => {
  it('rotate on use; the used one is then refused and its reuse revokes the grant', async () => {
    const { tokens } = await signInAndGetTokens('alice');
    const first = tokens.refresh_token!;

    const rotated = await refresh(provider.issuer, first);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toEqual(expect.any(String));
    expect(rotated.body.refresh_token).not.toBe(first);
    const access = await jwtVerify(rotated.body.access_token, jwks, {
      issuer: provider.issuer,
      audience: api,
    });
    expect(access.payload).toMatchObject({ sub: 'alice', roles: ['user'] });
    const id = await jwtVerify(rotated.body.id_token, jwks, {
      issuer: provider.issuer,
      audience: 'reference-app',
    });
    expect(id.payload.email).toBe('alice@example.com');

    const reused = await refresh(provider.issuer, first);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');

    const afterReuse = await refresh(provider.issuer, rotated.body.refresh_token!);
    expect(afterReuse.status).toBe(400);
    expect(afterReuse.body.error).toBe('invalid_grant');
  });

  it('are refused for another client', async () => {
    const { tokens } = await signInAndGetTokens('alice');
    const other = await refresh(provider.issuer, tokens.refresh_token!, 'userinfo-app');
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_grant');
  });
});

describe('revocation', () => {
  it('revokes a refresh token', async () => {
    const { tokens } = await signInAndGetTokens('bob');
    const response = await postForm(`${provider.issuer}/token/revocation`, {
      token: tokens.refresh_token!,
      token_type_hint: 'refresh_token',
      client_id: 'reference-app',
    });
    expect(response.status).toBe(200);
    const after = await refresh(provider.issuer, tokens.refresh_token!);
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
  });

  it('revokes a userinfo access token', async () => {
    const tokens = await signInToUserinfoApp('alice');
    const userinfo = () =>
      fetch(`${provider.issuer}/me`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    expect((await userinfo()).status).toBe(200);
    const response = await postForm(`${provider.issuer}/token/revocation`, {
      token: tokens.access_token,
      client_id: 'userinfo-app',
    });
    expect(response.status).toBe(200);
    expect((await userinfo()).status).toBe(401);
  });
});

describe('userinfo', () => {
  it('returns the same claims as the ID token, for a client set up for userinfo tokens', async () => {
    const tokens = await signInToUserinfoApp('bob');
    const response = await fetch(`${provider.issuer}/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    const claims = (await response.json()) as JWTPayload;
    const expected = {
      sub: 'bob',
      name: 'Bob Stone',
      preferred_username: 'bob',
      email: 'bob@example.com',
      email_verified: true,
      roles: ['user', 'admin'],
    };
    expect(claims).toEqual(expected);
    const id = await jwtVerify(tokens.id_token, jwks, {
      issuer: provider.issuer,
      audience: 'userinfo-app',
    });
    expect(id.payload).toMatchObject(expected);
  });

  it('gives a userinfo client the API token when it asks for the resource', async () => {
    const tokens = await signInToUserinfoApp('alice', { resource: api });
    const access = await jwtVerify(tokens.access_token, jwks, {
      issuer: provider.issuer,
      audience: api,
    });
    expect(access.payload).toMatchObject({ sub: 'alice', client_id: 'userinfo-app' });
  });

  it('refuses an API access token (its audience is the API)', async () => {
    const { tokens } = await signInAndGetTokens('alice');
    const response = await fetch(`${provider.issuer}/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(401);
  });
});

describe('RP-initiated logout', () => {
  const signedOut = 'http://localhost:5173/signed-out';

  /** Presses the logout page's Sign out button (it posts oidc-provider's form with logout=yes). */
  function pressSignOut(browser: Browser, page: Visit): Promise<Visit> {
    expect(page.body).toMatch(
      /<button type="submit" class="primary" form="op.logoutForm" name="logout" value="yes">Sign out<\/button>/,
    );
    const action = attribute(page.body, /<form\b[^>]*id="op.logoutForm"[^>]*>/, 'action');
    const xsrf = attribute(page.body, /<input\b[^>]*name="xsrf"[^>]*>/, 'value');
    return browser.submit(action, page.url, { xsrf, logout: 'yes' });
  }

  /** Whether an authorization request comes straight back with a code (no login page). */
  async function signedInSilently(browser: Browser): Promise<boolean> {
    const visit = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
    );
    return visit.redirectedTo?.searchParams.get('code') != null;
  }

  /** The page that asks: a heading, why, Sign out and Stay signed in, and nothing that runs. */
  function expectConfirmationPage(page: Visit): void {
    expect(page.response.status).toBe(200);
    expect(page.redirectedTo).toBeUndefined();
    expect(page.response.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(page.body).not.toMatch(/<script/);
    expect(page.body).not.toMatch(/\bautofocus\b/);
    expect(page.body).toContain('<h1>Sign out of the oidc-kit dev provider?</h1>');
    expect(page.body).toMatch(/asked to sign you out/);
    expect(page.body).toMatch(
      /<button type="submit" class="primary" form="op.logoutForm" name="logout" value="yes">Sign out<\/button>/,
    );
    expect(page.body).toMatch(
      /<form id="stay-signed-in" method="get" action="[^"]+"><button type="submit">Stay signed in<\/button><\/form>/,
    );
  }

  it('signs out, lands on the post-logout redirect, and ends the session and its refresh tokens', async () => {
    const { tokens, browser } = await signInAndGetTokens('alice');
    const page = await browser.open(
      endSessionUrl({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: 'http://localhost:5173/signed-out',
        state: 'bye',
      }),
    );
    expect(page.response.status).toBe(200);
    const csp = page.response.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(page.body).toContain(`<script nonce="${nonce}">`);
    expect(page.body).toMatch(/<button [^>]*name="logout" value="yes"[^>]*>Sign out<\/button>/);

    const action = attribute(page.body, /<form\b[^>]*id="op.logoutForm"[^>]*>/, 'action');
    const xsrf = attribute(page.body, /<input\b[^>]*name="xsrf"[^>]*>/, 'value');
    const done = await browser.submit(action, page.url, { xsrf, logout: 'yes' });
    expect(done.redirectedTo?.origin + done.redirectedTo!.pathname).toBe(
      'http://localhost:5173/signed-out',
    );
    expect(done.redirectedTo?.searchParams.get('state')).toBe('bye');

    // Signed out: the next authorization shows the login page again.
    const again = await browser.open(
      authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
    );
    expect(again.redirectedTo).toBeUndefined();
    expect(again.body).toContain('<h1>Sign in</h1>');
    const stale = await refresh(provider.issuer, tokens.refresh_token!);
    expect(stale.body.error).toBe('invalid_grant');
  });

  it('shows a signed-out page when no post-logout redirect is given', async () => {
    const { tokens, browser } = await signInAndGetTokens('bob');
    const page = await browser.open(
      `${provider.issuer}/session/end?client_id=reference-app&id_token_hint=${tokens.id_token}`,
    );
    const action = attribute(page.body, /<form\b[^>]*id="op.logoutForm"[^>]*>/, 'action');
    const xsrf = attribute(page.body, /<input\b[^>]*name="xsrf"[^>]*>/, 'value');
    const done = await browser.submit(action, page.url, { xsrf, logout: 'yes' });
    expect(done.redirectedTo).toBeUndefined();
    expect(done.response.status).toBe(200);
    expect(done.body).toContain('<h1>Signed out</h1>');
  });

  it('asks before signing out when no client is named', async () => {
    const { browser } = await signInAndGetTokens('alice');
    const page = await browser.open(`${provider.issuer}/session/end`);
    expectConfirmationPage(page);
    expect(page.body).toContain('A page asked to sign you out');
  });

  it('passes state back to the post-logout redirect with client_id, id_token_hint and state', async () => {
    const { tokens, browser } = await signInAndGetTokens('bob');
    const page = await browser.open(
      endSessionUrl({
        client_id: 'reference-app',
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: signedOut,
        state: 'state-from-the-app',
      }),
    );
    expect(page.body).toMatch(/<script nonce="[^"]+">/);
    const done = await pressSignOut(browser, page);
    expect(done.redirectedTo?.origin + done.redirectedTo!.pathname).toBe(signedOut);
    expect(done.redirectedTo?.searchParams.get('state')).toBe('state-from-the-app');
    expect(await signedInSilently(browser)).toBe(false);
  });

  // OpenID Connect RP-Initiated Logout 1.0, section 2: the OP must ask when there is no
  // id_token_hint or it does not belong to the current session; otherwise any page can sign the
  // developer out with a link (logout CSRF).
  it('asks, with no script, when only client_id and post_logout_redirect_uri are given; the session survives until Sign out', async () => {
    const { tokens, browser } = await signInAndGetTokens('alice');
    const page = await browser.open(
      endSessionUrl({
        client_id: 'reference-app',
        post_logout_redirect_uri: signedOut,
        state: 'csrf',
      }),
    );
    expectConfirmationPage(page);
    expect(page.body).toContain('<strong>oidc-kit reference app</strong>');

    // Still signed in, at the provider and in the app, until the button is pressed.
    expect(await signedInSilently(browser)).toBe(true);
    const refreshed = await refresh(provider.issuer, tokens.refresh_token!);
    expect(refreshed.status).toBe(200);

    const done = await pressSignOut(browser, page);
    expect(done.redirectedTo?.origin + done.redirectedTo!.pathname).toBe(signedOut);
    expect(done.redirectedTo?.searchParams.get('state')).toBe('csrf');
    expect(await signedInSilently(browser)).toBe(false);
    const stale = await refresh(provider.issuer, refreshed.body.refresh_token!);
    expect(stale.body.error).toBe('invalid_grant');
  });

  it("Stay signed in leaves the session and the app's tokens alone", async () => {
    const { tokens, browser } = await signInAndGetTokens('alice');
    const page = await browser.open(
      endSessionUrl({ client_id: 'reference-app', post_logout_redirect_uri: signedOut }),
    );
    const action = attribute(page.body, /<form\b[^>]*id="stay-signed-in"[^>]*>/, 'action');
    const stayed = await browser.open(new URL(action, page.url));
    expect(stayed.response.status).toBe(200);
    expect(stayed.redirectedTo).toBeUndefined();
    expect(stayed.body).toContain('<h1>You are still signed in</h1>');
    expect(stayed.body).not.toMatch(/<script/);
    expect(await signedInSilently(browser)).toBe(true);
    expect((await refresh(provider.issuer, tokens.refresh_token!)).status).toBe(200);
  });

  it("asks when the id_token_hint is another user's", async () => {
    const { browser } = await signInAndGetTokens('alice');
    const { tokens: bobs } = await signInAndGetTokens('bob');
    const page = await browser.open(
      endSessionUrl({ id_token_hint: bobs.id_token, post_logout_redirect_uri: signedOut }),
    );
    expectConfirmationPage(page);
    expect(await signedInSilently(browser)).toBe(true);
  });

  it('asks when the id_token_hint is for a client this session has not signed in to', async () => {
    const { browser } = await signInAndGetTokens('alice');
    const other = await signInToUserinfoApp('alice');
    const page = await browser.open(
      endSessionUrl({
        id_token_hint: other.id_token,
        post_logout_redirect_uri: 'http://localhost:3000/bye',
      }),
    );
    expectConfirmationPage(page);
    expect(page.body).toContain('<strong>Userinfo &lt;App&gt;</strong>');
  });

  it('asks when the id_token_hint is from an earlier sign-in', async () => {
    const { tokens: earlier } = await signInAndGetTokens('alice');
    // ID tokens carry whole seconds: the next sign-in must start in a later second.
    await new Promise((done) => setTimeout(done, 1100));
    const { browser } = await signInAndGetTokens('alice');
    const page = await browser.open(
      endSessionUrl({ id_token_hint: earlier.id_token, post_logout_redirect_uri: signedOut }),
    );
    expectConfirmationPage(page);
  });

  it('refuses a forged id_token_hint and signs nothing out', async () => {
    const { tokens, browser } = await signInAndGetTokens('alice');
    const [header, payload] = tokens.id_token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    const page = await browser.open(
      endSessionUrl({ id_token_hint: forged, post_logout_redirect_uri: signedOut, state: 'x' }),
    );
    expect(page.response.status).toBe(400);
    expect(page.redirectedTo).toBeUndefined();
    expect(page.body).not.toMatch(/<script/);
    expect(page.body).toContain('id_token_hint');
    expect(await signedInSilently(browser)).toBe(true);
  });

  it('refuses an unregistered post-logout redirect URI without redirecting', async () => {
    const { tokens, browser } = await signInAndGetTokens('alice');
    const page = await browser.open(
      endSessionUrl({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: 'http://localhost:5173/elsewhere',
      }),
    );
    expect(page.response.status).toBe(400);
    expect(page.redirectedTo).toBeUndefined();
    expect(page.body).toContain('post_logout_redirect_uri');
  });
});
