import { describe, expect, test, vi } from 'vitest';
import readme from '../../README.md?raw';
import { authConfigDefaults, validateConfig } from './config';
import { AuthError, isAuthError } from './errors';
import { defaultRoleReader } from './roles';

const origin = 'https://app.example.com';
const valid = {
  authority: 'https://login.example.com/realms/app',
  client_id: 'web',
  redirect_uri: 'https://app.example.com/callback',
};

function failure(config: unknown, options: { origin?: string } = { origin }): AuthError {
  try {
    validateConfig(config, options);
  } catch (error) {
    if (isAuthError(error, 'config_invalid')) return error;
    throw error;
  }
  throw new Error('validateConfig accepted a config it should refuse');
}

describe('validateConfig accepts', () => {
  test('a minimal https config and fills in the defaults', () => {
    const resolved = validateConfig(valid, { origin });
    expect(resolved.oidc).toEqual({
      ...valid,
      scope: 'openid profile email',
      response_type: 'code',
    });
    expect(resolved.apiOrigins).toEqual([origin]);
    expect(resolved.clockLeeway).toBe(authConfigDefaults.clockLeeway);
    expect(resolved.timeout).toBe(10_000);
    expect(resolved.storage).toBe('session');
    expect(resolved.verifySignature).toBe(false);
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  test("the defaults the README's Configuration table promises", () => {
    const table = readme.split('\n## Configuration\n')[1]?.split('\n## ')[0] ?? '';
    const defaults = new Map(
      [...table.matchAll(/^\| `(\w+)` +\| ([^|]+?) +\|/gm)].map(([, option, cell]) => [
        option,
        cell,
      ]),
    );
    for (const [option, value] of Object.entries(authConfigDefaults)) {
      expect(defaults.get(option), option).toBe(`\`${String(value)}\``);
    }
    const resolved = validateConfig(valid, { origin });
    expect(defaults.get('dpop')).toBe('`false`');
    expect(resolved.dpop).toBe(false);
    expect(defaults.get('apiOrigins')).toBe("the app's origin");
    expect(resolved.apiOrigins).toEqual([origin]);
    expect(defaults.get('idle')).toBe('off');
    expect(resolved.idle).toBeNull();
    expect(defaults.get('roles')).toBe('the `roles` claim');
    expect(resolved.roles).toBe(defaultRoleReader);
  });

  test.each(['http://localhost:4000', 'http://127.0.0.1:8080/realms/dev', 'http://[::1]:4000'])(
    'a plain http authority on the loopback host %s',
    (authority) => {
      expect(validateConfig({ ...valid, authority }, { origin }).oidc.authority).toBe(authority);
    },
  );

  test('explicit options, keeping other oidc-client-ts settings as given', () => {
    const verifier = async () => undefined;
    const resolved = validateConfig(
      {
        ...valid,
        response_type: 'code',
        scope: 'openid offline_access api:read',
        post_logout_redirect_uri: `${origin}/signed-out`,
        silent_redirect_uri: `${origin}/silent.html`,
        extraQueryParams: { audience: 'https://api.example.com' },
        apiOrigins: ['https://api.example.com', 'http://localhost:4001/'],
        clockLeeway: 0,
        timeout: 2500,
        storage: 'memory',
        verifySignature: verifier,
      },
      { origin },
    );
    expect(resolved.oidc.scope).toBe('openid offline_access api:read');
    expect(resolved.oidc.extraQueryParams).toEqual({ audience: 'https://api.example.com' });
    expect(resolved.oidc).not.toHaveProperty('apiOrigins');
    expect(resolved.apiOrigins).toEqual(['https://api.example.com', 'http://localhost:4001']);
    expect(resolved.clockLeeway).toBe(0);
    expect(resolved.timeout).toBe(2500);
    expect(resolved.storage).toBe('memory');
    expect(resolved.verifySignature).toBe(verifier);
  });

  test('a client_secret key that is present but undefined', () => {
    expect(() => validateConfig({ ...valid, client_secret: undefined }, { origin })).not.toThrow();
  });

  test('any redirect_uri when no app origin is known (server rendering)', () => {
    vi.stubGlobal('location', undefined);
    const resolved = validateConfig({ ...valid, redirect_uri: 'https://other.example.com/cb' }, {});
    expect(resolved.oidc.redirect_uri).toBe('https://other.example.com/cb');
    expect(resolved.apiOrigins).toEqual([]);
  });

  test('apiOrigins as a browser writes origins: uppercase, a default port, an IDN host', () => {
    const resolved = validateConfig(
      {
        ...valid,
        apiOrigins: [
          'https://API.Example.com',
          'https://api.example.com:443',
          'https://bücher.example',
        ],
      },
      { origin },
    );
    expect(resolved.apiOrigins).toEqual([
      'https://api.example.com',
      'https://api.example.com',
      'https://xn--bcher-kva.example',
    ]);
  });

  test("the browser's own origin when none is passed", () => {
    // jsdom's location is http://localhost:3000
    const local = { ...valid, redirect_uri: `${location.origin}/callback` };
    expect(validateConfig(local).apiOrigins).toEqual([location.origin]);
    expect(failure(valid, {}).field).toBe('redirect_uri');
  });
});

describe('validateConfig refuses with config_invalid naming the field', () => {
  test.each([
    ['a missing config', undefined, 'config', /must be an object/],
    ['an array config', [valid], 'config', /must be an object/],
    [
      'a missing authority',
      { ...valid, authority: undefined },
      'authority',
      /is required.*issuer URL/,
    ],
    ['an empty authority', { ...valid, authority: '' }, 'authority', /is required/],
    [
      'a non-string authority',
      { ...valid, authority: 42 },
      'authority',
      /non-empty string \(got 42\)/,
    ],
    [
      'a non-URL authority',
      { ...valid, authority: 'login.example.com' },
      'authority',
      /not an absolute URL/,
    ],
    [
      'an http authority off loopback',
      { ...valid, authority: 'http://login.example.com' },
      'authority',
      /must use https:.*localhost and 127\.0\.0\.1/,
    ],
    [
      'an http authority on a look-alike host',
      { ...valid, authority: 'http://localhost.evil.example' },
      'authority',
      /must use https:/,
    ],
    [
      'a non-http authority',
      { ...valid, authority: 'ftp://login.example.com' },
      'authority',
      /must use https:/,
    ],
    [
      'an authority without its scheme (host:port reads as a scheme)',
      { ...valid, authority: 'localhost:4000' },
      'authority',
      /has no http:\/\/ or https:\/\/ \(got "localhost:4000"\).*https:\/\//,
    ],
    [
      'an authority with a query',
      { ...valid, authority: 'https://login.example.com/?tenant=a' },
      'authority',
      /without query or fragment/,
    ],
    ['a missing client_id', { ...valid, client_id: undefined }, 'client_id', /is required/],
    ['a blank client_id', { ...valid, client_id: '   ' }, 'client_id', /non-empty string/],
    [
      'a missing redirect_uri',
      { ...valid, redirect_uri: undefined },
      'redirect_uri',
      /is required.*https:\/\/app\.example\.com\/callback/,
    ],
    [
      'a relative redirect_uri',
      { ...valid, redirect_uri: '/callback' },
      'redirect_uri',
      /not an absolute URL/,
    ],
    [
      'a redirect_uri on another origin',
      { ...valid, redirect_uri: 'https://evil.example/callback' },
      'redirect_uri',
      /must be on this app's origin https:\/\/app\.example\.com/,
    ],
    [
      'a redirect_uri on another port',
      { ...valid, redirect_uri: 'https://app.example.com:8443/callback' },
      'redirect_uri',
      /this app's origin/,
    ],
    [
      'a post_logout_redirect_uri on another origin',
      { ...valid, post_logout_redirect_uri: 'https://evil.example/' },
      'post_logout_redirect_uri',
      /this app's origin/,
    ],
    [
      'a silent_redirect_uri on another origin',
      { ...valid, silent_redirect_uri: 'https://evil.example/s' },
      'silent_redirect_uri',
      /this app's origin/,
    ],
    [
      'the implicit flow',
      { ...valid, response_type: 'id_token token' },
      'response_type',
      /must be "code".*implicit/,
    ],
    [
      'the hybrid flow',
      { ...valid, response_type: 'code id_token' },
      'response_type',
      /must be "code"/,
    ],
    [
      'a scope without openid',
      { ...valid, scope: 'profile email' },
      'scope',
      /must contain "openid"/,
    ],
    [
      'a scope with openid only as a prefix',
      { ...valid, scope: 'openidx profile' },
      'scope',
      /must contain "openid"/,
    ],
    ['a non-string scope', { ...valid, scope: ['openid'] }, 'scope', /must contain "openid"/],
    [
      'a client_secret',
      { ...valid, client_secret: 's3cret' },
      'client_secret',
      /must not be set: a browser app cannot keep a secret/,
    ],
    ['an empty client_secret', { ...valid, client_secret: '' }, 'client_secret', /must not be set/],
    [
      'apiOrigins that is not an array',
      { ...valid, apiOrigins: 'https://api.example.com' },
      'apiOrigins',
      /must be an array/,
    ],
    [
      'an apiOrigin with a path',
      { ...valid, apiOrigins: ['https://api.example.com/v1'] },
      'apiOrigins[0]',
      /origin only/,
    ],
    [
      'an apiOrigin with an empty query',
      { ...valid, apiOrigins: ['https://api.example.com/?'] },
      'apiOrigins[0]',
      /origin only/,
    ],
    [
      'an apiOrigin with a fragment',
      { ...valid, apiOrigins: ['https://api.example.com#'] },
      'apiOrigins[0]',
      /origin only/,
    ],
    [
      'an apiOrigin with credentials',
      { ...valid, apiOrigins: ['https://a:b@api.example.com'] },
      'apiOrigins[0]',
      /origin only/,
    ],
    [
      'an http apiOrigin off loopback',
      { ...valid, apiOrigins: [origin, 'http://api.example.com'] },
      'apiOrigins[1]',
      /must use https:/,
    ],
    ['a non-string apiOrigin', { ...valid, apiOrigins: [7] }, 'apiOrigins[0]', /must be a string/],
    ['a negative clockLeeway', { ...valid, clockLeeway: -1 }, 'clockLeeway', /from 0 to 600/],
    [
      'a clockLeeway in milliseconds',
      { ...valid, clockLeeway: 60_000 },
      'clockLeeway',
      /from 0 to 600/,
    ],
    ['a zero timeout', { ...valid, timeout: 0 }, 'timeout', /positive number of milliseconds/],
    [
      'a non-finite timeout',
      { ...valid, timeout: Number.POSITIVE_INFINITY },
      'timeout',
      /positive number/,
    ],
    [
      'an unknown storage',
      { ...valid, storage: 'cookie' },
      'storage',
      /one of "session", "local", "memory"/,
    ],
    [
      'a verifySignature that is no verifier',
      { ...valid, verifySignature: 'yes' },
      'verifySignature',
      /must be a verifier or false/,
    ],
    [
      'verifySignature: true, which would verify nothing',
      { ...valid, verifySignature: true },
      'verifySignature',
      /import \{ verifyIdTokenSignature \} from '@oidc-kit\/react\/verify-signature'/,
    ],
  ])('%s', (_label, config, field, message) => {
    const error = failure(config);
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe('config_invalid');
    expect(error.field).toBe(field);
    expect(error.message).toContain(`\`${field}\``);
    expect(error.message).toMatch(message);
    expect(error.handled).toMatch(/Nothing was sent/);
  });

  test('keeps the URL parser error as the cause', () => {
    expect(failure({ ...valid, authority: 'not a url' }).cause).toBeInstanceOf(TypeError);
  });

  test('shortens a very long value in the message', () => {
    const error = failure({ ...valid, scope: 'x'.repeat(5000) });
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('unknown keys (development builds)', () => {
  test.each([
    ['apiOrigin', 'apiOrigins'],
    ['clientId', 'client_id'],
    ['redirectUri', 'redirect_uri'],
    ['storge', 'storage'],
    ['verifySignatures', 'verifySignature'],
  ])('%s is config_invalid, naming it and suggesting %s', (typo, known) => {
    const error = failure({ ...valid, [typo]: 'x' });
    expect(error.field).toBe(typo);
    expect(error.message).toContain(`\`${typo}\``);
    expect(error.message).toContain(`\`${known}\``);
  });

  test('a key far from any setting is named, with no suggestion', () => {
    const error = failure({ ...valid, somethingElse: 1 });
    expect(error.field).toBe('somethingElse');
    expect(error.message).not.toContain('Did you mean');
  });

  test('every oidc-client-ts setting oidc-kit passes on is known', () => {
    expect(() =>
      validateConfig(
        {
          ...valid,
          loadUserInfo: true,
          extraQueryParams: { audience: 'x' },
          ui_locales: 'fr',
          acr_values: 'mfa',
          filterProtocolClaims: true,
          popupWindowFeatures: {},
          silent_redirect_uri: 'https://app.example.com/silent',
        },
        { origin },
      ),
    ).not.toThrow();
  });

  test('production builds skip the check (the security checks stay)', () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      expect(() => validateConfig({ ...valid, apiOrigin: 'x' }, { origin })).not.toThrow();
      expect(failure({ ...valid, disablePKCE: true }).field).toBe('disablePKCE');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('an authority given as its discovery document (development builds)', () => {
  // oidc-client-ts appends /.well-known/openid-configuration to `authority`; given it already, the
  // discovery request goes to the path twice, and the issuer check could never pass.
  test.each([
    'https://login.example.com/realms/app/.well-known/openid-configuration',
    'https://login.example.com/realms/app/.well-known/openid-configuration/',
  ])('%s is config_invalid, with the issuer to use', (authority) => {
    const error = failure({ ...valid, authority });
    expect(error.field).toBe('authority');
    expect(error.message).toContain(
      'is the URL of the discovery document, not the issuer: use "https://login.example.com/realms/app"',
    );
  });

  test('production builds leave it to discovery, as before', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const authority = 'https://login.example.com/.well-known/openid-configuration';
    expect(() => validateConfig({ ...valid, authority }, { origin })).not.toThrow();
  });
});

describe('validateConfig in a production build', () => {
  const docs = 'https://github.com/oidc-kit/oidc-kit/blob/main/docs/errors.md#config_invalid';

  test.each([
    ['an http authority off loopback', { authority: 'http://login.example.com' }, 'authority'],
    ['a missing authority', { authority: undefined }, 'authority'],
    ['a client_secret', { client_secret: 's3cret' }, 'client_secret'],
    ['disablePKCE', { disablePKCE: true }, 'disablePKCE'],
    ['the implicit flow', { response_type: 'token' }, 'response_type'],
    ['a scope without openid', { scope: 'profile' }, 'scope'],
    ['a missing client_id', { client_id: undefined }, 'client_id'],
    [
      'a redirect_uri on another origin',
      { redirect_uri: 'https://evil.example/cb' },
      'redirect_uri',
    ],
    ['an http apiOrigin', { apiOrigins: ['http://api.example.com'] }, 'apiOrigins[0]'],
    ['an apiOrigin with a path', { apiOrigins: ['https://api.example.com/v1'] }, 'apiOrigins[0]'],
    ['verifySignature: true (no verifier)', { verifySignature: true }, 'verifySignature'],
  ])('still refuses %s, with the short message and its link', (_label, change, field) => {
    vi.stubEnv('NODE_ENV', 'production');
    const error = failure({ ...valid, ...change });
    expect(error.field).toBe(field);
    expect(error.message).toBe(`oidc-kit config_invalid (${field}): see ${docs}`);
    expect(error.handled).toBeUndefined();
  });

  test('skips the shape checks: the types are TypeScript’s to check', () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(() => validateConfig({ ...valid, timeout: 'soon' }, { origin })).not.toThrow();
    expect(() => validateConfig({ ...valid, storage: 'cookie' }, { origin })).not.toThrow();
  });
});

describe('idle sign-out settings', () => {
  test('a misspelt key inside idle is refused in development, naming it (else the default warning would hold in silence)', () => {
    const idle = { timeout: 900_000, warnig: 120_000 };
    const error = failure({ ...valid, idle });
    expect(error.field).toBe('idle.warnig');
    expect(error.message).toMatch(/timeout and warning/);
  });

  test('a warning under 20 s, set or by default, is said in development (WCAG 2.2.1), not refused', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const short = validateConfig(
        { ...valid, idle: { timeout: 900_000, warning: 5_000 } },
        { origin },
      );
      expect(short.idle).toEqual({ timeout: 900_000, warning: 5_000 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/idle\.warning is 5000 ms\..*WCAG 2\.2\.1/);
      validateConfig({ ...valid, idle: { timeout: 30_000 } }, { origin });
      expect(String(warn.mock.calls[1]?.[0])).toMatch(/15000 ms \(half of idle\.timeout\)/);
      validateConfig({ ...valid, idle: { timeout: 900_000, warning: 20_000 } }, { origin });
      validateConfig({ ...valid, idle: { timeout: 900_000 } }, { origin });
      expect(warn).toHaveBeenCalledTimes(2);
      vi.stubEnv('NODE_ENV', 'production');
      validateConfig({ ...valid, idle: { timeout: 900_000, warning: 5_000 } }, { origin });
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllEnvs();
      warn.mockRestore();
    }
  });

  test('a timeout under 10 s, as one given in seconds, is said in development, naming milliseconds', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(validateConfig({ ...valid, idle: { timeout: 900 } }, { origin }).idle).toEqual({
        timeout: 900,
        warning: 450,
      });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /idle\.timeout is 900 ms: .*milliseconds.*15 \* 60_000/,
      );
      validateConfig({ ...valid, idle: { timeout: 10_000, warning: 5_000 } }, { origin });
      expect(String(warn.mock.calls[1]?.[0])).not.toMatch(/idle\.timeout is/);
      vi.stubEnv('NODE_ENV', 'production');
      validateConfig({ ...valid, idle: { timeout: 900 } }, { origin });
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllEnvs();
      warn.mockRestore();
    }
  });

  test('off unless set; the warning defaults to a minute, or half a shorter timeout', () => {
    expect(validateConfig(valid, { origin }).idle).toBeNull();
    expect(validateConfig({ ...valid, idle: { timeout: 900_000 } }, { origin }).idle).toEqual({
      timeout: 900_000,
      warning: 60_000,
    });
    expect(
      validateConfig({ ...valid, idle: { timeout: 30_000, warning: 10_000 } }, { origin }).idle,
    ).toEqual({ timeout: 30_000, warning: 10_000 });
    // A warning as long as the timeout would show right after any input, which then counts no more.
    expect(validateConfig({ ...valid, idle: { timeout: 20_000 } }, { origin }).idle).toEqual({
      timeout: 20_000,
      warning: 10_000,
    });
  });

  test.each([
    ['a number instead of the object', 900_000, 'idle'],
    ['a zero timeout', { timeout: 0 }, 'idle.timeout'],
    ['a negative timeout', { timeout: -5 }, 'idle.timeout'],
    ['a string timeout', { timeout: '900000' }, 'idle.timeout'],
    ['no timeout', { warning: 60_000 }, 'idle.timeout'],
    ['an infinite timeout', { timeout: Infinity }, 'idle.timeout'],
    ['a negative warning', { timeout: 900_000, warning: -1 }, 'idle.warning'],
    ['a NaN warning', { timeout: 900_000, warning: Number.NaN }, 'idle.warning'],
    ['a warning as long as the timeout', { timeout: 60_000, warning: 60_000 }, 'idle.warning'],
    ['a warning longer than the timeout', { timeout: 30_000, warning: 60_000 }, 'idle.warning'],
  ])('refuses %s, naming the field, in every build', (_label, idle, field) => {
    for (const env of ['development', 'production']) {
      vi.stubEnv('NODE_ENV', env);
      expect(failure({ ...valid, idle }).field).toBe(field);
      vi.unstubAllEnvs();
    }
  });
});
