import { roleReaders } from '@oidc-kit/react';
import type { AuthConfig, RoleReader, TokenStorage } from '@oidc-kit/react';

// Build-time settings (Vite inlines VITE_* variables); the defaults are the local dev stack
// that `npm run dev` starts. See .env.example for hosted providers.
const env = import.meta.env;

/** Where the reference API answers. */
export const apiUrl = (env.VITE_API_URL ?? 'http://localhost:4001').replace(/\/$/, '');

/**
 * Where the user's roles are: `keycloak`, `keycloak:<client id>`, `entra`, `okta`, `cognito`,
 * `auth0:<claim>` or `claim:<path>`; default the `roles` claim (the dev provider's).
 */
function roleReader(setting: string | undefined): RoleReader {
  const [kind = 'claim', argument = 'roles'] = (setting ?? 'claim:roles').split(/:(.*)/s);
  switch (kind) {
    case 'keycloak':
      return roleReaders.keycloak(setting?.includes(':') ? { clientId: argument } : {});
    case 'entra':
      return roleReaders.entra();
    case 'okta':
      return roleReaders.okta();
    case 'cognito':
      return roleReaders.cognito();
    case 'auth0':
      return roleReaders.auth0(argument);
    default:
      return roleReaders.claim(argument);
  }
}

/** The app's auth configuration. */
export const authConfig: AuthConfig = {
  authority: env.VITE_OIDC_AUTHORITY ?? 'http://localhost:4000',
  client_id: env.VITE_OIDC_CLIENT_ID ?? 'reference-app',
  redirect_uri: `${window.location.origin}/callback`,
  post_logout_redirect_uri: `${window.location.origin}/signed-out`,
  scope: env.VITE_OIDC_SCOPE ?? 'openid profile email',
  apiOrigins: [new URL(apiUrl).origin],
  roles: roleReader(env.VITE_OIDC_ROLES),
  // `session` (default), `local` or `memory`: see "Storage modes" in the package README.
  ...(env.VITE_OIDC_STORAGE ? { storage: env.VITE_OIDC_STORAGE as TokenStorage } : {}),
  ...(env.VITE_OIDC_EXTRA_PARAMS
    ? { extraQueryParams: JSON.parse(env.VITE_OIDC_EXTRA_PARAMS) }
    : {}),
};
