import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { PortInUseError } from './PortInUseError.js';
import { cliUsage } from './parseCliArgs.js';
import { devProviderDefaults, readyLine, startDevProvider } from './startDevProvider.js';
import { Browser } from './test-support/Browser.js';
import { authorizationUrl, exchangeCode, pkce, refresh, signIn } from './test-support/oidcFlow.js';
import { decodeJwt } from 'jose';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('startDevProvider options', () => {
  it("has the defaults the README's Options table and --help give", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const rows = [...readme.matchAll(/^\| `--[^|]+\| `(\w+)` +\| ([^|]+?) +\|/gm)];
    const defaults = new Map(rows.map(([, option, cell]) => [option, cell]));
    for (const [option, value] of Object.entries(devProviderDefaults)) {
      expect(defaults.get(option), option).toMatch(new RegExp(`^\`${value}\`( |$)`));
      if (option !== 'host' && option !== 'port') {
        const flag = `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
        expect(cliUsage, flag).toMatch(new RegExp(`\\n  ${flag} .*\\(default ${value}\\)`));
      }
    }
    expect(cliUsage).toMatch(/--port .*\(default 4000,/);
    expect(cliUsage).toMatch(/--host .*\(default localhost;/);
    expect(defaults.get('dpopNonce')).toBe('`false`');
    expect(defaults.get('quiet')).toBe('`false`');
  });

  it('signs in given users, without the seeded-accounts hint', async () => {
    const provider = await startDevProvider({
      port: 0,
      quiet: true,
      users: [{ username: 'carol', password: 'secret', sub: 'u-3', roles: ['auditor'] }],
    });
    try {
      expect(provider.users.map((user) => user.username)).toEqual(['carol']);
      const page = await new Browser(provider.issuer).open(
        authorizationUrl(provider.issuer, { challenge: pkce().challenge }),
      );
      expect(page.body).not.toContain('Dev accounts');
      const { code, verifier } = await signIn(provider.issuer, {
        username: 'carol',
        password: 'secret',
      });
      const tokens = await exchangeCode(provider.issuer, { code, verifier });
      const id = decodeJwt(tokens.id_token);
      expect(id).toMatchObject({ sub: 'u-3', preferred_username: 'carol', roles: ['auditor'] });
      expect(id).not.toHaveProperty('email');
      expect(id).not.toHaveProperty('name');
    } finally {
      await provider.stop();
    }
  });

  it('applies the token lifetimes and the API audience', async () => {
    const provider = await startDevProvider({
      port: 0,
      quiet: true,
      accessTokenTtl: 7,
      idTokenTtl: 11,
      refreshTokenTtl: 13,
      apiAudience: 'https://api.test',
    });
    try {
      const { code, verifier } = await signIn(provider.issuer, { username: 'bob' });
      const tokens = await exchangeCode(provider.issuer, { code, verifier });
      const access = decodeJwt(tokens.access_token);
      const id = decodeJwt(tokens.id_token);
      expect(access.aud).toBe('https://api.test');
      expect(access.exp! - access.iat!).toBe(7);
      expect(id.exp! - id.iat!).toBe(11);
      expect(tokens.expires_in).toBe(7);
    } finally {
      await provider.stop();
    }
  });

  it('issues the API scopes it is given, to a client that asks for them, on refresh too', async () => {
    const provider = await startDevProvider({ port: 0, quiet: true, apiScopes: ['invoices:read'] });
    try {
      const { code, verifier, browser } = await signIn(provider.issuer, {
        username: 'bob',
        scope: 'openid invoices:read',
      });
      const tokens = await exchangeCode(provider.issuer, { code, verifier });
      expect(decodeJwt(tokens.access_token).scope).toBe('openid invoices:read');
      expect(tokens.scope).toBe('openid invoices:read');
      const refreshed = await refresh(provider.issuer, tokens.refresh_token!);
      expect(refreshed.status).toBe(200);
      expect(decodeJwt(refreshed.body.access_token).scope).toBe('openid invoices:read');

      // The same session, asking without it: the grant holds the scope, the token does not.
      const again = await signIn(provider.issuer, { username: 'bob', scope: 'openid', browser });
      const without = await exchangeCode(provider.issuer, again);
      expect(decodeJwt(without.access_token).scope).toBe('openid');
      expect(provider.apiScopes).toEqual(['openid', 'profile', 'email', 'roles', 'invoices:read']);
    } finally {
      await provider.stop();
    }
  });

  // oidc-provider drops a scope that neither it nor the resource server knows, with no error.
  it.each([
    ['without the option', {}],
    ['with another API scope given', { apiScopes: ['orders:read'] }],
  ])('%s, leaves out an API scope it does not know', async (_label, options) => {
    const provider = await startDevProvider({ port: 0, quiet: true, ...options });
    try {
      const { code, verifier } = await signIn(provider.issuer, {
        username: 'bob',
        scope: 'openid invoices:read',
      });
      const tokens = await exchangeCode(provider.issuer, { code, verifier });
      expect(decodeJwt(tokens.access_token).scope).toBe('openid');
    } finally {
      await provider.stop();
    }
  });

  it('registers extra clients with their exact redirect URIs', async () => {
    const provider = await startDevProvider({
      port: 0,
      quiet: true,
      clients: [{ client_id: 'e2e', redirect_uris: ['http://127.0.0.1:3000/auth/callback'] }],
    });
    try {
      expect(provider.clients.map((client) => client.client_id)).toEqual(['reference-app', 'e2e']);
      const { code, verifier } = await signIn(provider.issuer, {
        username: 'alice',
        clientId: 'e2e',
        redirectUri: 'http://127.0.0.1:3000/auth/callback',
      });
      await exchangeCode(provider.issuer, {
        code,
        verifier,
        clientId: 'e2e',
        redirectUri: 'http://127.0.0.1:3000/auth/callback',
      });
      const refused = await new Browser(provider.issuer).open(
        authorizationUrl(provider.issuer, {
          clientId: 'e2e',
          redirectUri: 'http://localhost:3000/auth/callback',
          challenge: pkce().challenge,
        }),
      );
      expect(refused.response.status).toBe(400);
      expect(refused.redirectedTo).toBeUndefined();
    } finally {
      await provider.stop();
    }
  });

  // README: "put a TLS proxy in front (and pass --issuer)". The proxy speaks http to the provider
  // and says so in X-Forwarded-Proto / X-Forwarded-Host, as TLS-terminating proxies do.
  it.each([
    ['keeps the Host header', { host: 'dev.example.test', 'x-forwarded-proto': 'https' }],
    [
      'sets X-Forwarded-Host',
      { 'x-forwarded-host': 'dev.example.test', 'x-forwarded-proto': 'https' },
    ],
  ])(
    'behind a TLS proxy that %s, with the https issuer given, discovery lists https endpoints',
    async (_label, headers) => {
      const provider = await startDevProvider({
        port: 0,
        quiet: true,
        issuer: 'https://dev.example.test',
      });
      try {
        const body = await new Promise<string>((done, fail) => {
          get(
            {
              host: 'localhost',
              port: provider.port,
              path: '/.well-known/openid-configuration',
              headers,
            },
            (res) => {
              let text = '';
              res.on('data', (chunk: Buffer) => (text += chunk.toString()));
              res.on('end', () => done(text));
            },
          ).on('error', fail);
        });
        const metadata = JSON.parse(body) as Record<string, unknown>;
        expect(metadata.issuer).toBe('https://dev.example.test');
        for (const name of [
          'authorization_endpoint',
          'token_endpoint',
          'userinfo_endpoint',
          'jwks_uri',
          'end_session_endpoint',
          'revocation_endpoint',
        ]) {
          expect(metadata[name], name).toMatch(/^https:\/\/dev\.example\.test\//);
        }
      } finally {
        await provider.stop();
      }
    },
  );

  it('listens on the given host and announces the given issuer', async () => {
    const probe = await startDevProvider({ port: 0, quiet: true });
    const port = probe.port;
    await probe.stop();
    const provider = await startDevProvider({
      port,
      host: '127.0.0.1',
      issuer: `http://127.0.0.1:${port}`,
      quiet: true,
    });
    try {
      expect(provider.issuer).toBe(`http://127.0.0.1:${port}`);
      const metadata = (await (
        await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)
      ).json()) as { issuer: string; token_endpoint: string };
      expect(metadata.issuer).toBe(`http://127.0.0.1:${port}`);
      expect(metadata.token_endpoint).toBe(`http://127.0.0.1:${port}/token`);
    } finally {
      await provider.stop();
    }
  });

  describe('a host that is not loopback', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('is warned about on stderr, even when quiet, and is not refused', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      // 192.0.2.1 (TEST-NET-1, RFC 5737) is on no interface: the warning comes before listening,
      // and listening then fails, so nothing is exposed and no packet leaves the machine.
      const started = await startDevProvider({ port: 0, host: '192.0.2.1', quiet: true }).then(
        (provider) => provider.stop(),
        (error: unknown) => error,
      );
      if (started !== undefined) {
        expect((started as Error).message).toMatch(/^oidc-kit-dev-provider: cannot listen on/);
      }
      expect(warn).toHaveBeenCalledTimes(1);
      const [line] = warn.mock.calls[0]!;
      expect(line).toMatch(/^oidc-kit-dev-provider: warning: host 192\.0\.2\.1 is not a loopback/);
      expect(line).toContain('other machines');
      expect(line).toContain('development only');
      expect(line).toContain('alice / alice');
    });

    it('is not warned about for loopback hosts', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const provider = await startDevProvider({ port: 0, host: '127.0.0.1', quiet: true });
      await provider.stop();
      const defaults = await startDevProvider({ port: 0, quiet: true });
      await defaults.stop();
      expect(warn).not.toHaveBeenCalled();
    });
  });

  it('does not let rotation extend a refresh token past its first lifetime', async () => {
    const provider = await startDevProvider({ port: 0, quiet: true, refreshTokenTtl: 4 });
    try {
      const { code, verifier } = await signIn(provider.issuer, { username: 'alice' });
      const tokens = await exchangeCode(provider.issuer, { code, verifier });
      await sleep(2000);
      const rotated = await refresh(provider.issuer, tokens.refresh_token!);
      expect(rotated.status).toBe(200);
      // A fresh 4 s lifetime would last until about 6 s; the first one ended at 4 s.
      await sleep(2300);
      const late = await refresh(provider.issuer, rotated.body.refresh_token!);
      expect(late.status).toBe(400);
      expect(late.body.error).toBe('invalid_grant');
    } finally {
      await provider.stop();
    }
  });

  it('prints the ready line unless quiet', () => {
    const provider = {
      issuer: 'http://localhost:4000',
      port: 4000,
      apiAudience: 'http://localhost:4001',
      apiScopes: ['openid', 'profile', 'email', 'roles'],
      users: [
        { username: 'alice', password: 'a', sub: 'alice', email_verified: false, roles: [] },
        { username: 'bob', password: 'b', sub: 'bob', email_verified: false, roles: [] },
      ],
      clients: [{ client_id: 'reference-app', redirect_uris: [] }],
      stop: async () => {},
    };
    expect(readyLine(provider)).toBe(
      'oidc-kit dev provider ready at http://localhost:4000 (users: alice, bob; clients: reference-app)',
    );
    // The API scopes given, if any: the developer sees that the option or variable arrived.
    expect(
      readyLine({
        ...provider,
        apiScopes: [...provider.apiScopes, 'invoices:read', 'orders:read'],
      }),
    ).toBe(
      'oidc-kit dev provider ready at http://localhost:4000 (users: alice, bob; clients: reference-app; API scopes: invoices:read orders:read)',
    );
  });

  it('rejects with a PortInUseError when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, 'localhost', done));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startDevProvider({ port, quiet: true }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(PortInUseError);
      expect((error as PortInUseError).port).toBe(port);
      expect((error as Error).message).toBe(
        `oidc-kit-dev-provider: port ${port} is already in use. Stop the other process or choose another port with --port <n> or OIDC_KIT_PROVIDER_PORT.`,
      );
    } finally {
      blocker.close();
    }
  });

  it.each([
    [{ port: 70000 }, 'option port must be an integer from 0 to 65535 (got 70000).'],
    [{ accessTokenTtl: 0 }, 'option accessTokenTtl must be a whole number of seconds'],
    [{ refreshTokenTtl: 1.5 }, 'option refreshTokenTtl must be a whole number of seconds'],
    [
      { issuer: 'http://localhost:4000/' },
      'option issuer must be an origin with no path or trailing slash',
    ],
    // The default port is not part of an origin: naming a path or slash here misled.
    [
      { issuer: 'https://dev.example.test:443' },
      'option issuer must be an origin with no path or trailing slash, as a browser writes it: https://dev.example.test (got "https://dev.example.test:443").',
    ],
    [
      { issuer: 'HTTP://LOCALHOST:4000' },
      'as a browser writes it: http://localhost:4000 (got "HTTP://LOCALHOST:4000").',
    ],
    [{ issuer: 'ftp://localhost:4000' }, 'option issuer must use http: or https:'],
    [{ apiAudience: 'api' }, 'option apiAudience must be an absolute URL'],
    [
      { users: [], usersFile: 'users.json' },
      'option users give either users or usersFile, not both.',
    ],
    [{ users: [{ username: 'x' }] }, 'option users, entry 1 ("x"), field "password": is missing.'],
    [
      { apiScopes: 'invoices:read' },
      "option apiScopes must be an array of scopes, e.g. apiScopes: ['invoices:read'].",
    ],
    [
      { apiScopes: ['invoices:read invoices:write'] },
      "option apiScopes, entry 1: \"invoices:read invoices:write\" has a space. Give each scope as its own entry, e.g. apiScopes: ['invoices:read', 'invoices:write'].",
    ],
    [
      { apiScopes: ['invoices:read', 'invoices"read'] },
      'option apiScopes, entry 2: "invoices\\"read" is not a scope (RFC 6749 §3.3): use printable ASCII characters other than space, " and \\, e.g. invoices:read.',
    ],
    [
      { apiScopes: ['factures:lecture-générale'] },
      'option apiScopes, entry 1: "factures:lecture-générale" is not a scope',
    ],
    [{ apiScopes: [''] }, 'option apiScopes, entry 1: "" is not a scope'],
    [{ apiScopes: [42] }, "option apiScopes, entry 1: must be a string, e.g. 'invoices:read'."],
  ])('refuses %o', async (options, message) => {
    const error = await startDevProvider({ quiet: true, ...options } as never).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DevProviderConfigError);
    expect((error as Error).message).toContain(message);
  });
});
