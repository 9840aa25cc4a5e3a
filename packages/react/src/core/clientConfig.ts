import type { UserManager } from 'oidc-client-ts';
import { validateConfig } from './config';
import type { AuthConfig, AuthOptions, ResolvedAuthConfig } from './configTypes';

/** An `AuthConfig`, or oidc-kit's options around a `UserManager` you built. */
export type AuthClientConfig = AuthConfig | (AuthOptions & { userManager: UserManager });

/**
 * What a client was given, validated with defaults (`validateConfig`), and the ready-made
 * `UserManager` when it was given one: that manager's settings stand for the OIDC fields, so they
 * pass the same checks as a config's.
 */
export function clientConfig(
  config: AuthClientConfig,
): [ResolvedAuthConfig, UserManager | undefined] {
  // Not an object (missing, in JavaScript): validateConfig says so, as config_invalid.
  const { userManager, ...options } = (config ?? {}) as AuthOptions & { userManager?: UserManager };
  if (userManager === undefined) return [validateConfig(config), undefined];
  const settings = userManager.settings;
  return [
    validateConfig({
      authority: settings.authority,
      client_id: settings.client_id,
      redirect_uri: settings.redirect_uri,
      post_logout_redirect_uri: settings.post_logout_redirect_uri,
      scope: settings.scope,
      response_type: settings.response_type,
      client_secret: settings.client_secret,
      disablePKCE: settings.disablePKCE,
      ...options,
    }),
    userManager,
  ];
}
