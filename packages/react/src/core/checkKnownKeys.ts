import type { AuthConfig } from './configTypes';
import { configInvalid } from './configInvalid';

// Every key an AuthConfig may have. Typed against AuthConfig, so the compiler refuses a missing or
// a stray name when oidc-client-ts or oidc-kit's options change.
const knownKeys: Record<keyof AuthConfig, 0> = {
  idle: 0,
  authority: 0,
  metadataUrl: 0,
  metadata: 0,
  metadataSeed: 0,
  signingKeys: 0,
  client_id: 0,
  client_secret: 0,
  response_type: 0,
  scope: 0,
  redirect_uri: 0,
  post_logout_redirect_uri: 0,
  token_endpoint_auth_signing_alg: 0,
  prompt: 0,
  display: 0,
  max_age: 0,
  ui_locales: 0,
  acr_values: 0,
  resource: 0,
  response_mode: 0,
  filterProtocolClaims: 0,
  loadUserInfo: 0,
  mergeClaimsStrategy: 0,
  staleStateAgeInSeconds: 0,
  extraQueryParams: 0,
  extraTokenParams: 0,
  extraHeaders: 0,
  dpop: 0,
  revokeTokenAdditionalContentTypes: 0,
  disablePKCE: 0,
  fetchRequestCredentials: 0,
  refreshTokenAllowedScope: 0,
  requestTimeoutInSeconds: 0,
  omitScopeWhenRequesting: 0,
  popup_redirect_uri: 0,
  popup_post_logout_redirect_uri: 0,
  popupWindowFeatures: 0,
  popupWindowTarget: 0,
  redirectMethod: 0,
  redirectTarget: 0,
  iframeNotifyParentOrigin: 0,
  iframeScriptOrigin: 0,
  silent_redirect_uri: 0,
  silentRequestTimeoutInSeconds: 0,
  automaticSilentRenew: 0,
  validateSubOnSilentRenew: 0,
  includeIdTokenInSilentRenew: 0,
  monitorSession: 0,
  monitorAnonymousSession: 0,
  checkSessionIntervalInSeconds: 0,
  query_status_response_type: 0,
  stopCheckSessionOnError: 0,
  revokeTokenTypes: 0,
  revokeTokensOnSignout: 0,
  includeIdTokenInSilentSignout: 0,
  accessTokenExpiringNotificationTimeInSeconds: 0,
  maxSilentRenewTimeoutRetries: 0,
  apiOrigins: 0,
  clockLeeway: 0,
  timeout: 0,
  storage: 0,
  verifySignature: 0,
  roles: 0,
};

/** `clientId`, `client_id` and `clientID` all read `clientid`. */
function normalise(key: string): string {
  return key.replace(/[_-]/g, '').toLowerCase();
}

/** Levenshtein distance, for the closest known key to a typo. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

function closest(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 4)) + 1;
  for (const known of Object.keys(knownKeys)) {
    const d = normalise(known) === normalise(key) ? 0 : distance(key, known);
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Refuses a key that is neither an oidc-client-ts setting nor an oidc-kit option (a typo such as
 * `apiOrigin` or `clientId` would otherwise be ignored in silence), suggesting the closest one.
 * Development builds only: the key list stays out of production bundles.
 */
export function checkKnownKeys(config: Record<string, unknown>): void {
  for (const key of Object.keys(config)) {
    if (key in knownKeys) continue;
    const suggestion = closest(key);
    throw configInvalid(
      key,
      `is not a setting oidc-kit or oidc-client-ts knows.${suggestion === undefined ? ' Remove it, or check the spelling against AuthConfig.' : ` Did you mean \`${suggestion}\`?`}`,
    );
  }
}
