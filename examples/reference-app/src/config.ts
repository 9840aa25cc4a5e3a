import { roleReaders } from '@oidc-kit/react';
import type { AuthConfig, TokenStorage } from '@oidc-kit/react';
import { choiceSetting, idleSetting, urlSetting } from './settings';

// What differs per deployment comes from VITE_* variables (.env.local, see .env.example); the
// defaults are the local stack `npm run dev` starts. Everything else is edited here.
const env = import.meta.env;

/** Where the API answers, without a trailing slash. */
export const apiUrl = urlSetting(
  'VITE_API_URL',
  env.VITE_API_URL ?? 'http://localhost:4001',
).replace(/\/$/, '');

/** The app's auth configuration. Per provider, what to change: docs/providers. */
export const authConfig: AuthConfig = {
  authority: urlSetting('VITE_OIDC_AUTHORITY', env.VITE_OIDC_AUTHORITY ?? 'http://localhost:4000'),
  client_id: env.VITE_OIDC_CLIENT_ID || 'reference-app',
  redirect_uri: `${window.location.origin}/callback`,
  post_logout_redirect_uri: `${window.location.origin}/signed-out`,
  // Add offline_access for refresh tokens where the provider needs it (Auth0, Entra ID, Okta).
  scope: 'openid profile email',
  // Only these origins get the access token.
  apiOrigins: [new URL(apiUrl).origin],
  // Where the provider puts the roles: roleReaders.keycloak(), .entra(), .okta(), .cognito(),
  // .auth0('https://example.com/roles'), or .claim('path.to.claim') as here.
  roles: roleReaders.claim('roles'),
  // Where tokens are kept: "Storage modes" in the package README.
  storage: choiceSetting<TokenStorage>(
    'VITE_OIDC_STORAGE',
    env.VITE_OIDC_STORAGE,
    ['session', 'local', 'memory'],
    'session',
  ),
  // Sign-out after a period without input in any tab, with a warning first (<IdleWarning /> in
  // the layout). Off unless VITE_OIDC_IDLE_TIMEOUT is set.
  idle: idleSetting(
    'VITE_OIDC_IDLE_TIMEOUT',
    env.VITE_OIDC_IDLE_TIMEOUT,
    'VITE_OIDC_IDLE_WARNING',
    env.VITE_OIDC_IDLE_WARNING,
  ),
  // Tokens bound to a key this browser cannot export (DPoP, RFC 9449) where the provider
  // advertises it, as the dev provider does; plain Bearer tokens elsewhere.
  dpop: 'auto',
  // Auth0 issues a JWT access token for an API only when asked for its identifier:
  // extraQueryParams: { audience: 'https://api.example.com' },
};
