import type { UserManagerSettings } from 'oidc-client-ts';
import type { IdleOptions, ResolvedIdle } from './idleConfig';
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
  /**
   * Verify the ID token's signature against the provider's JWKS (one more request): pass
   * `verifyIdTokenSignature` from `@oidc-kit/react/verify-signature` (needs `jose`). Default false.
   */
  verifySignature?: false | SignatureVerifier;
  /**
   * Reads the user's roles, for role checks in guards. Default: the `roles` claim.
   * @example roles: roleReaders.keycloak({ clientId: 'web' })
   */
  roles?: RoleReader;
  /**
   * Signs the user out, in every tab, after `timeout` ms without input in any of them, with a
   * warning `warning` ms before (default 60,000). Off by default.
   * @example idle: { timeout: 15 * 60_000, warning: 60_000 }
   */
  idle?: IdleOptions;
  /**
   * DPoP (RFC 9449): tokens bound to a key this browser cannot export, useless to a thief
   * elsewhere. `true` requires it (a provider that does not advertise DPoP is a `config_invalid`
   * error at sign-in); `'auto'` uses it when the provider advertises it. Off by default.
   * @example dpop: 'auto'
   */
  dpop?: boolean | 'auto';
}

/** The oidc-client-ts settings oidc-kit accepts, snake_case as providers document them. */
export type OidcSettings = Omit<
  UserManagerSettings,
  'response_type' | 'client_secret' | 'client_authentication' | 'userStore' | 'stateStore' | 'dpop'
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
  readonly verifySignature: false | SignatureVerifier;
  readonly roles: RoleReader;
  /** Idle sign-out, or null when off. */
  readonly idle: ResolvedIdle | null;
  /** DPoP: required (`true`), when the provider advertises it (`'auto'`), or off. */
  readonly dpop: boolean | 'auto';
}

/**
 * Verifies an ID token's signature against the provider's keys (`jwksUri`, fetched within
 * `timeout` ms); rejects when it does not verify. `@oidc-kit/react/verify-signature` has one.
 */
export type SignatureVerifier = (
  idToken: string,
  keys: { jwksUri: string; timeout: number },
) => Promise<void>;
