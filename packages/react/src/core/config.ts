import { resolveIdle } from './idleConfig';
import { checkConfigShape, optionalRedirectUris } from './checkConfigShape';
import { configInvalid, showValue } from './configInvalid';
import { isSecureOrLoopback } from './loopback';
import { defaultRoleReader } from './roles';
import type { AuthConfig, ResolvedAuthConfig } from './configTypes';

/** The defaults {@link validateConfig} applies to fields left out. */
export const authConfigDefaults = /* @__PURE__ */ Object.freeze({
  scope: 'openid profile email',
  response_type: 'code',
  clockLeeway: 60,
  timeout: 10_000,
  storage: 'session',
  verifySignature: false,
} as const);

function parseUrl(field: string, value: unknown, message: string | false): URL {
  try {
    return new URL(value as string);
  } catch (cause) {
    throw configInvalid(field, message, cause);
  }
}

function requireSameOrigin(field: string, value: unknown, origin: string | undefined): void {
  const url = parseUrl(
    field,
    value,
    process.env.NODE_ENV !== 'production' &&
      `is not an absolute URL (got ${showValue(value)}). Use a full URL on this app's origin, e.g. "${origin ?? 'https://app.example.com'}/callback".`,
  );
  if (origin !== undefined && url.origin !== origin) {
    throw configInvalid(
      field,
      process.env.NODE_ENV !== 'production' &&
        `must be on this app's origin ${origin} so the provider sends the user back here (got ${showValue(value)}). Register ${origin}${url.pathname} at your provider and use it.`,
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
 * The security checks (no secret, PKCE, the code flow, an https authority outside loopback,
 * redirect URIs on the app's origin, `apiOrigins` as https origins, a real signature verifier)
 * run in every build; the shape
 * checks (types, unknown keys) in development builds only.
 *
 * `origin` is the app's origin (default: `location.origin` in a browser); without one, the
 * same-origin checks on redirect URIs are skipped.
 */
export function validateConfig(
  config: unknown,
  options: { origin?: string } = {},
): ResolvedAuthConfig {
  const origin = appOrigin(options.origin);
  if (process.env.NODE_ENV !== 'production') checkConfigShape(config, origin);
  const input = (config ?? {}) as Record<string, unknown>;

  if (input.client_secret !== undefined) {
    throw configInvalid(
      'client_secret',
      process.env.NODE_ENV !== 'production' &&
        'must not be set: a browser app cannot keep a secret. Register the client as public (no client authentication, PKCE) at your provider and remove the secret from the app.',
    );
  }
  if (input.disablePKCE !== undefined && input.disablePKCE !== false) {
    throw configInvalid(
      'disablePKCE',
      process.env.NODE_ENV !== 'production' &&
        'must not be set: PKCE (S256) protects the authorization code of a public client and cannot be turned off. Remove `disablePKCE` from the config (or from your UserManager settings).',
    );
  }

  const verifier = input.verifySignature;
  if (verifier !== undefined && verifier !== false && typeof verifier !== 'function') {
    // Anything else would read as "verification on" while no signature is checked.
    throw configInvalid(
      'verifySignature',
      process.env.NODE_ENV !== 'production' &&
        `must be a verifier or false (got ${showValue(verifier)}). To verify signatures, \`npm install jose\`, then \`import { verifyIdTokenSignature } from '@oidc-kit/react/verify-signature'\` and set \`verifySignature: verifyIdTokenSignature\`.`,
    );
  }

  const dpop = input.dpop ?? false;
  if (dpop !== false && dpop !== true && dpop !== 'auto') {
    // Anything else would read as "tokens bound to a key" while they are not.
    throw configInvalid(
      'dpop',
      process.env.NODE_ENV !== 'production' &&
        `must be true, 'auto' or false (got ${showValue(dpop)}). \`true\` requires DPoP; 'auto' uses it when the provider advertises it.`,
    );
  }

  const authority = parseUrl(
    'authority',
    input.authority,
    process.env.NODE_ENV !== 'production' &&
      `is not an absolute URL (got ${showValue(input.authority)}). Set it to your provider's issuer URL, e.g. "https://login.example.com/realms/app".`,
  );
  if (!isSecureOrLoopback(authority)) {
    throw configInvalid(
      'authority',
      process.env.NODE_ENV !== 'production' &&
        // http: and https: URLs always have a host; `localhost:4000` parses as a URL whose
        // scheme is `localhost:`, with none.
        (authority.hostname
          ? `must use https: (got ${showValue(input.authority)}). Plain http: is allowed only for a provider on this machine (localhost and 127.0.0.1, or [::1]).`
          : `has no http:// or https:// (got ${showValue(input.authority)}). Write the issuer URL in full, e.g. "https://login.example.com" (or "http://localhost:4000" for a local provider).`),
    );
  }
  if (authority.search !== '' || authority.hash !== '') {
    throw configInvalid(
      'authority',
      process.env.NODE_ENV !== 'production' &&
        `must be the issuer URL without query or fragment (got ${showValue(input.authority)}).`,
    );
  }
  if (typeof input.client_id !== 'string' || input.client_id === '') {
    throw configInvalid('client_id', process.env.NODE_ENV !== 'production' && 'is required.');
  }
  requireSameOrigin('redirect_uri', input.redirect_uri, origin);
  for (const field of optionalRedirectUris) {
    if (input[field] !== undefined) requireSameOrigin(field, input[field], origin);
  }

  const responseType = input.response_type ?? authConfigDefaults.response_type;
  if (responseType !== 'code') {
    throw configInvalid(
      'response_type',
      process.env.NODE_ENV !== 'production' &&
        `must be "code" (authorization code flow with PKCE; got ${showValue(responseType)}). The implicit and hybrid flows are not supported.`,
    );
  }
  const scope = input.scope ?? authConfigDefaults.scope;
  if (typeof scope !== 'string' || !scope.split(/\s+/).includes('openid')) {
    throw configInvalid(
      'scope',
      process.env.NODE_ENV !== 'production' &&
        `must contain "openid" (got ${showValue(scope)}), e.g. "openid profile email".`,
    );
  }

  const {
    apiOrigins,
    clockLeeway = authConfigDefaults.clockLeeway,
    timeout = authConfigDefaults.timeout,
    storage = authConfigDefaults.storage,
    verifySignature = authConfigDefaults.verifySignature,
    roles = defaultRoleReader,
    idle,
    dpop: _dpop,
    ...oidc
  } = input as unknown as AuthConfig;
  return Object.freeze({
    oidc: { ...oidc, scope, response_type: 'code' as const },
    apiOrigins: resolveApiOrigins(apiOrigins, origin),
    clockLeeway,
    timeout,
    storage,
    verifySignature,
    roles,
    idle: resolveIdle(idle),
    dpop: dpop as boolean | 'auto',
  });
}

/** The origins the access token may go to: https (or loopback) origins, nothing more. */
function resolveApiOrigins(
  value: readonly string[] | undefined,
  origin: string | undefined,
): readonly string[] {
  return Object.freeze(
    (value ?? (origin === undefined ? [] : [origin])).map((entry, index) => {
      const field = `apiOrigins[${index}]`;
      const url = parseUrl(
        field,
        entry,
        process.env.NODE_ENV !== 'production' &&
          `is not an absolute URL (got ${showValue(entry)}). Use an origin such as "https://api.example.com".`,
      );
      if (!isSecureOrLoopback(url)) {
        throw configInvalid(
          field,
          process.env.NODE_ENV !== 'production' &&
            `must use https: (got ${showValue(entry)}); http: only for localhost.`,
        );
      }
      // Compared as the browser writes it (lowercase, no default port, punycode), as requests are.
      if (url.href !== `${url.origin}/`) {
        throw configInvalid(
          field,
          process.env.NODE_ENV !== 'production' &&
            `must be an origin only, with no path, query or credentials (got ${showValue(entry)}); use ${showValue(url.origin)}.`,
        );
      }
      return url.origin;
    }),
  );
}
