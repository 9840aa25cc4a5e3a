import { User } from 'oidc-client-ts';

/** What a test user may say about itself; everything has a realistic default. */
export interface TestUserOptions {
  sub?: string;
  name?: string;
  email?: string;
  preferred_username?: string;
  roles?: readonly string[];
  /** Space-separated scopes granted to the access token. Default `openid profile email`. */
  scope?: string;
  /** Seconds until the access token expires; negative for an expired one. Default 3600. */
  expiresIn?: number;
  issuer?: string;
  clientId?: string;
  /** Any further ID-token claims, e.g. a provider's role claim. */
  claims?: Record<string, unknown>;
  /** Whether the user has a refresh token. Default true. */
  refreshable?: boolean;
  /** Tokens bound to a DPoP key (`token_type` DPoP), as with `dpop` on. Default false. */
  dpop?: boolean;
}

function base64url(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Builds a real oidc-client-ts `User` (profile, tokens and expiry) for tests and stories.
 * Its tokens are unsigned test tokens: they are only for code that does not verify them.
 *
 * @example
 * const alice = createTestUser({ name: 'Alice Liddell', roles: ['admin'] });
 */
export function createTestUser(options: TestUserOptions = {}): User {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + (options.expiresIn ?? 3600);
  const name = options.name ?? 'Test User';
  const preferredUsername = options.preferred_username ?? name.toLowerCase().replace(/\s+/g, '.');
  const profile = {
    iss: options.issuer ?? 'https://id.example.test',
    aud: options.clientId ?? 'test-client',
    sub: options.sub ?? `user-${preferredUsername}`,
    iat: now,
    exp: expiresAt,
    name,
    preferred_username: preferredUsername,
    email: options.email ?? `${preferredUsername}@example.test`,
    email_verified: true,
    roles: [...(options.roles ?? [])],
    ...options.claims,
  };
  const scope = options.scope ?? 'openid profile email';
  const header = base64url({ alg: 'none', typ: 'JWT' });
  return new User({
    id_token: `${header}.${base64url(profile)}.`,
    access_token: `${header}.${base64url({ ...profile, scope })}.`,
    refresh_token: options.refreshable === false ? undefined : `test-refresh-${profile.sub}`,
    token_type: options.dpop === true ? 'DPoP' : 'Bearer',
    scope,
    profile,
    expires_at: expiresAt,
    session_state: null,
  });
}
