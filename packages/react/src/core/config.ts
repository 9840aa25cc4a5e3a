import type { UserManagerSettings } from 'oidc-client-ts';
import { checkKnownKeys } from './checkKnownKeys';
import { AuthError } from './errors';
import { defaultRoleReader } from './roles';
import type { RoleReader } from './roles';

/** Where tokens are kept. `local` survives the browser closing and is readable by any XSS. */
export type TokenStorage = 'session' | 'local' | 'memory';

/** oidc-kit's own options, beside the oidc-client-ts settings. */
export interface AuthOptions {
  /**
   * Origins the authenticated fetch may send the access token to. Default: the app's own origin.
   * @example apiOrigins: ['https://api.example.com']
   */
  apiOrigins?: readonly string[];
  /** Seconds of clock difference tolerated when checking `exp` and `iat`. Default 60. */
  clockLeeway?: number;
  /** Milliseconds before any request to the provider fails with a `timeout` error. Default 10000. */
  timeout?: number;
  /** Where tokens are kept. Default `session` (sessionStorage). */
  storage?: TokenStorage;
  /** Verify the ID token's signature against the provider's JWKS (one more request). Default false. */
  verifySignature?: boolean;
  /**
   * Reads the user's roles, for role checks in guards. Default: the `roles` claim.
   * @example roles: roleReaders.keycloak({ clientId: 'web' })
   */
  roles?: RoleReader;
}

/** The oidc-client-ts settings oidc-kit accepts, snake_case as providers document them. */
export type OidcSettings = Omit<
  UserManagerSettings,
  'response_type' | 'client_secret' | 'client_authentication' | 'userStore' | 'stateStore'
> & {
  /** Only the authorization code flow (with PKCE) is supported. */
  response_type?: 'code';
  /** A browser app cannot keep a secret; setting one is refused. */
  client_secret?: never;
};

/**
 * Everything `AuthProvider` needs: the provider settings plus oidc-kit's options.
 *
 * @example
 * const config: AuthConfig = {
 *   authority: 'https://login.example.com/realms/app',
 *   client_id: 'web',
 *   redirect_uri: `${location.origin}/callback`,
 * };
 */
export type AuthConfig = OidcSettings & AuthOptions;

/** A validated {@link AuthConfig} with every default filled in. */
export interface ResolvedAuthConfig {
  readonly oidc: OidcSettings & { scope: string; response_type: 'code' };
  readonly apiOrigins: readonly string[];
  readonly clockLeeway: number;
  readonly timeout: number;
  readonly storage: TokenStorage;
  readonly verifySignature: boolean;
  readonly roles: RoleReader;
}

/** The defaults {@link validateConfig} applies to fields left out. */
export const authConfigDefaults = /* @__PURE__ */ Object.freeze({
  scope: 'openid profile email',
  response_type: 'code',
  clockLeeway: 60,
  timeout: 10_000,
  storage: 'session',
  verifySignature: false,
} as const);

const storages: readonly TokenStorage[] = ['session', 'local', 'memory'];
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

function invalid(field: string, message: string, cause?: unknown): AuthError {
  return new AuthError('config_invalid', `oidc-kit config: \`${field}\` ${message}`, {
    field,
    cause,
    handled: 'Nothing was sent to the identity provider.',
  });
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function requireString(config: Record<string, unknown>, field: string, hint: string): string {
  const value = config[field];
  if (value === undefined || value === null || value === '') {
    throw invalid(field, `is required. ${hint}`);
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(field, `must be a non-empty string (got ${show(value)}). ${hint}`);
  }
  return value;
}

function parseUrl(field: string, value: string, hint: string): URL {
  try {
    return new URL(value);
  } catch (cause) {
    throw invalid(field, `is not an absolute URL (got ${show(value)}). ${hint}`, cause);
  }
}

function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
}

function requireSameOrigin(field: string, value: unknown, origin: string | undefined): void {
  if (typeof value !== 'string' || value === '') {
    throw invalid(field, `must be an absolute URL on this app's origin (got ${show(value)}).`);
  }
  const url = parseUrl(
    field,
    value,
    `Use a full URL on this app's origin, e.g. "${origin ?? 'https://app.example.com'}/callback".`,
  );
  if (origin !== undefined && url.origin !== origin) {
    throw invalid(
      field,
      `must be on this app's origin ${origin} so the provider sends the user back here (got ${show(value)}). Register ${origin}${url.pathname} at your provider and use it.`,
    );
  }
}

function appOrigin(explicit: string | undefined): string | undefined {
  if (explicit !== undefined) return explicit;
  const location = (globalThis as { location?: { origin?: unknown } }).location;
  return typeof location?.origin === 'string' && location.origin !== 'null'
    ? location.origin
    : undefined;
}

/**
 * Checks an {@link AuthConfig} and fills in the defaults. Throws an `AuthError` with code
 * `config_invalid` whose `field` and message name the field at fault and how to fix it.
 *
 * `origin` is the app's origin (default: `location.origin` in a browser); without one, the
 * same-origin checks on redirect URIs are skipped.
 */
export function validateConfig(
  config: unknown,
  options: { origin?: string } = {},
): ResolvedAuthConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw invalid(
      'config',
      `must be an object with authority, client_id and redirect_uri (got ${show(config)}).`,
    );
  }
  const input = config as Record<string, unknown>;
  const origin = appOrigin(options.origin);
  if (process.env.NODE_ENV !== 'production') checkKnownKeys(input);

  if ('client_secret' in input && input.client_secret !== undefined) {
    throw invalid(
      'client_secret',
      'must not be set: a browser app cannot keep a secret. Register the client as public (no client authentication, PKCE) at your provider and remove the secret from the app.',
    );
  }

  if (input.disablePKCE !== undefined && input.disablePKCE !== false) {
    throw invalid(
      'disablePKCE',
      'must not be set: PKCE (S256) protects the authorization code of a public client and cannot be turned off. Remove `disablePKCE` from the config (or from your UserManager settings).',
    );
  }

  const authorityHint =
    'Set it to your provider\'s issuer URL, e.g. "https://login.example.com/realms/app".';
  const authority = parseUrl(
    'authority',
    requireString(input, 'authority', authorityHint),
    authorityHint,
  );
  if (!isSecureOrLoopback(authority)) {
    throw invalid(
      'authority',
      `must use https: (got ${show(input.authority)}). Plain http: is allowed only for localhost and 127.0.0.1 during development.`,
    );
  }
  if (authority.search !== '' || authority.hash !== '') {
    throw invalid(
      'authority',
      `must be the issuer URL without query or fragment (got ${show(input.authority)}).`,
    );
  }

  requireString(input, 'client_id', 'Use the client id your provider shows for this app.');

  requireString(
    input,
    'redirect_uri',
    `Use this app's callback URL, e.g. "${origin ?? 'https://app.example.com'}/callback", registered at your provider.`,
  );
  requireSameOrigin('redirect_uri', input.redirect_uri, origin);
  for (const field of ['post_logout_redirect_uri', 'silent_redirect_uri', 'popup_redirect_uri']) {
    if (input[field] !== undefined) requireSameOrigin(field, input[field], origin);
  }

  const responseType = input.response_type ?? authConfigDefaults.response_type;
  if (responseType !== 'code') {
    throw invalid(
      'response_type',
      `must be "code" (authorization code flow with PKCE; got ${show(responseType)}). The implicit and hybrid flows are not supported.`,
    );
  }

  const scope = input.scope ?? authConfigDefaults.scope;
  if (typeof scope !== 'string' || !scope.split(/\s+/).includes('openid')) {
    throw invalid(
      'scope',
      `must contain "openid" (got ${show(scope)}), e.g. "openid profile email".`,
    );
  }

  const apiOrigins = resolveApiOrigins(input.apiOrigins, origin);

  const clockLeeway = input.clockLeeway ?? authConfigDefaults.clockLeeway;
  if (
    typeof clockLeeway !== 'number' ||
    !Number.isFinite(clockLeeway) ||
    clockLeeway < 0 ||
    clockLeeway > 600
  ) {
    throw invalid(
      'clockLeeway',
      `must be a number of seconds from 0 to 600 (got ${show(clockLeeway)}).`,
    );
  }

  const timeout = input.timeout ?? authConfigDefaults.timeout;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) {
    throw invalid('timeout', `must be a positive number of milliseconds (got ${show(timeout)}).`);
  }

  const storage = input.storage ?? authConfigDefaults.storage;
  if (!storages.includes(storage as TokenStorage)) {
    throw invalid(
      'storage',
      `must be one of ${storages.map((s) => `"${s}"`).join(', ')} (got ${show(storage)}).`,
    );
  }

  const verifySignature = input.verifySignature ?? authConfigDefaults.verifySignature;
  if (typeof verifySignature !== 'boolean') {
    throw invalid('verifySignature', `must be true or false (got ${show(verifySignature)}).`);
  }

  const roles = input.roles ?? defaultRoleReader;
  if (typeof roles !== 'function') {
    throw invalid(
      'roles',
      `must be a function from user to roles, e.g. roleReaders.keycloak() (got ${show(roles)}).`,
    );
  }

  const {
    apiOrigins: _apiOrigins,
    clockLeeway: _clockLeeway,
    timeout: _timeout,
    storage: _storage,
    verifySignature: _verifySignature,
    roles: _roles,
    ...oidc
  } = input as unknown as AuthConfig;
  return Object.freeze({
    oidc: { ...oidc, scope, response_type: 'code' as const },
    apiOrigins,
    clockLeeway,
    timeout,
    storage: storage as TokenStorage,
    verifySignature,
    roles: roles as RoleReader,
  });
}

function resolveApiOrigins(value: unknown, origin: string | undefined): readonly string[] {
  if (value === undefined) return Object.freeze(origin === undefined ? [] : [origin]);
  if (!Array.isArray(value)) {
    throw invalid(
      'apiOrigins',
      `must be an array of origins, e.g. ["https://api.example.com"] (got ${show(value)}).`,
    );
  }
  return Object.freeze(
    value.map((entry: unknown, index) => {
      const field = `apiOrigins[${index}]`;
      if (typeof entry !== 'string')
        throw invalid(field, `must be a string origin (got ${show(entry)}).`);
      const url = parseUrl(field, entry, 'Use an origin such as "https://api.example.com".');
      if (!isSecureOrLoopback(url)) {
        throw invalid(field, `must use https: (got ${show(entry)}); http: only for localhost.`);
      }
      if (url.origin !== entry.replace(/\/$/, '')) {
        throw invalid(
          field,
          `must be an origin only, with no path, query or credentials (got ${show(entry)}); use ${show(url.origin)}.`,
        );
      }
      return url.origin;
    }),
  );
}
