import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { CliUsageError, cliUsage, parseCliArgs } from './parseCliArgs.js';

describe('parseCliArgs', () => {
  it('starts with defaults when given nothing', () => {
    expect(parseCliArgs([], {})).toEqual({ kind: 'start', options: {} });
  });

  it('maps every flag to its option', () => {
    expect(
      parseCliArgs(
        [
          '--port=4100',
          '--host',
          '127.0.0.1',
          '--issuer',
          'http://127.0.0.1:4100',
          '--users-file',
          'u.json',
          '--clients-file',
          'c.json',
          '--keys-file',
          'k.json',
          '--access-token-ttl',
          '10',
          '--id-token-ttl',
          '20',
          '--refresh-token-ttl',
          '30',
          '--api-audience',
          'http://localhost:4002',
          '--api-scope',
          'invoices:read',
          '--dpop-nonce',
          '--quiet',
        ],
        {},
      ),
    ).toEqual({
      kind: 'start',
      options: {
        port: 4100,
        host: '127.0.0.1',
        issuer: 'http://127.0.0.1:4100',
        usersFile: 'u.json',
        clientsFile: 'c.json',
        keysFile: 'k.json',
        accessTokenTtl: 10,
        idTokenTtl: 20,
        refreshTokenTtl: 30,
        apiAudience: 'http://localhost:4002',
        apiScopes: ['invoices:read'],
        dpopNonce: true,
        quiet: true,
      },
    });
  });

  it('takes the port from OIDC_KIT_PROVIDER_PORT, with --port winning', () => {
    expect(parseCliArgs([], { OIDC_KIT_PROVIDER_PORT: '4200' })).toEqual({
      kind: 'start',
      options: { port: 4200 },
    });
    expect(parseCliArgs(['--port', '4300'], { OIDC_KIT_PROVIDER_PORT: '4200' })).toEqual({
      kind: 'start',
      options: { port: 4300 },
    });
  });

  it('reads an empty OIDC_KIT_PROVIDER_PORT as unset, and ignores spaces around a number', () => {
    expect(parseCliArgs([], { OIDC_KIT_PROVIDER_PORT: ' 4100 ' })).toEqual({
      kind: 'start',
      options: { port: 4100 },
    });
    expect(parseCliArgs([], { OIDC_KIT_PROVIDER_PORT: '' })).toEqual({
      kind: 'start',
      options: {},
    });
    expect(parseCliArgs([], { OIDC_KIT_PROVIDER_PORT: '  ' })).toEqual({
      kind: 'start',
      options: {},
    });
  });

  it('takes API scopes from repeated --api-scope, each a scope or several separated by spaces', () => {
    expect(
      parseCliArgs(
        ['--api-scope', 'invoices:read', '--api-scope=invoices:write  orders:read', '--quiet'],
        {},
      ),
    ).toEqual({
      kind: 'start',
      options: { apiScopes: ['invoices:read', 'invoices:write', 'orders:read'], quiet: true },
    });
  });

  it('takes API scopes from OIDC_KIT_PROVIDER_API_SCOPES (space-separated), with --api-scope winning', () => {
    expect(
      parseCliArgs([], { OIDC_KIT_PROVIDER_API_SCOPES: ' invoices:read invoices:write ' }),
    ).toEqual({ kind: 'start', options: { apiScopes: ['invoices:read', 'invoices:write'] } });
    expect(
      parseCliArgs(['--api-scope', 'orders:read'], {
        OIDC_KIT_PROVIDER_API_SCOPES: 'invoices:read',
      }),
    ).toEqual({ kind: 'start', options: { apiScopes: ['orders:read'] } });
    // Empty means unset, as for OIDC_KIT_PROVIDER_PORT.
    expect(parseCliArgs([], { OIDC_KIT_PROVIDER_API_SCOPES: ' ' })).toEqual({
      kind: 'start',
      options: {},
    });
  });

  it.each([
    [
      ['--api-scope', 'invoices"read'],
      {},
      'oidc-kit-dev-provider: option --api-scope "invoices\\"read" is not a scope (RFC 6749 §3.3): use printable ASCII characters other than space, " and \\, e.g. invoices:read.',
    ],
    [
      [],
      { OIDC_KIT_PROVIDER_API_SCOPES: 'invoices:read factures:générales' },
      'oidc-kit-dev-provider: variable OIDC_KIT_PROVIDER_API_SCOPES "factures:générales" is not a scope (RFC 6749 §3.3)',
    ],
    [
      ['--api-scope', ''],
      {},
      'oidc-kit-dev-provider: option --api-scope "" is not a scope (RFC 6749 §3.3)',
    ],
  ])('refuses API scopes %j %j with a DevProviderConfigError', (args, env, message) => {
    let error: unknown;
    try {
      parseCliArgs(args, env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DevProviderConfigError);
    expect((error as Error).message).toContain(message);
  });

  it('recognises --help, -h and --version', () => {
    expect(parseCliArgs(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseCliArgs(['--version'], {})).toEqual({ kind: 'version' });
  });

  it('says in --help that --quiet keeps warnings, as the README does (a non-loopback host, an unknown redirect URI)', () => {
    expect(cliUsage).toMatch(/\n {2}--quiet +print only the ready line, warnings and errors\n/);
  });

  it.each([
    [['--port', 'abc'], {}, '--port must be a whole number (got "abc").'],
    [
      [],
      { OIDC_KIT_PROVIDER_PORT: '40x' },
      'OIDC_KIT_PROVIDER_PORT must be a whole number (got "40x").',
    ],
    [
      ['--access-token-ttl', '0'],
      {},
      '--access-token-ttl must be a whole number of at least 1 (got "0").',
    ],
    [
      ['--id-token-ttl', '1.5'],
      {},
      '--id-token-ttl must be a whole number of at least 1 (got "1.5").',
    ],
    [['--prot', '4000'], {}, "Unknown option '--prot'"],
    [['serve'], {}, "Unexpected argument 'serve'"],
  ])('refuses %j %j', (args, env, message) => {
    let error: unknown;
    try {
      parseCliArgs(args, env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CliUsageError);
    expect((error as Error).message).toMatch(/^oidc-kit-dev-provider: /);
    expect((error as Error).message).toContain(message);
  });
});

describe('the environment under npm run dev', () => {
  it('reaches the provider: turbo passes through every variable the CLI reads', () => {
    const read = new Set<string>();
    parseCliArgs([], new Proxy({}, { get: (_, name) => void read.add(String(name)) }));
    const turbo = JSON.parse(readFileSync(new URL('../../../turbo.json', import.meta.url), 'utf8'));
    expect(read.size).toBeGreaterThan(0);
    expect(turbo.tasks['@oidc-kit/dev-provider#dev']?.passThroughEnv).toEqual(
      expect.arrayContaining([...read]),
    );
  });
});
