import type { User } from 'oidc-client-ts';
import { accessTokenClaims } from './roles';

/** Where each provider puts roles by default, and the reader that reads them there. */
function readerFor(claims: Record<string, unknown>): [string, string] | undefined {
  const realm = claims.realm_access as { roles?: unknown } | undefined;
  if (realm?.roles !== undefined || claims.resource_access !== undefined) {
    // `azp` is the client the token was issued to: its own roles are under that id.
    const client = typeof claims.azp === 'string' ? `{ clientId: '${claims.azp}' }` : '';
    return ['realm_access.roles (Keycloak)', `roleReaders.keycloak(${client})`];
  }
  if (claims['cognito:groups'] !== undefined) {
    return ['cognito:groups (Cognito)', 'roleReaders.cognito()'];
  }
  // Auth0 takes custom claims under a namespace, a URL: https://example.com/roles.
  const namespaced = Object.keys(claims).find((key) => /^https?:\/\/.*\/(roles|groups)$/.test(key));
  if (namespaced !== undefined) {
    return [`${namespaced} (Auth0)`, `roleReaders.auth0('${namespaced}')`];
  }
  if (claims.groups !== undefined) {
    return ['groups (Okta, Entra ID)', 'roleReaders.okta() (or roleReaders.entra())'];
  }
  return undefined;
}

const warned = /* @__PURE__ */ new WeakSet<User>();

/**
 * Development builds only (called behind a `NODE_ENV` check): roles are required, the reader found
 * none, and the user's claims hold roles where a provider puts them by default. The guard denies
 * access, which looks right; this names the reader to set. Once per user object.
 */
export function warnRolesElsewhere(user: User, required: readonly string[]): void {
  if (warned.has(user)) return;
  warned.add(user);
  const found =
    readerFor(user.profile as Record<string, unknown>) ?? readerFor(accessTokenClaims(user));
  if (found === undefined) return;
  const [where, reader] = found;
  console.warn(
    `oidc-kit: access needs a role (${required.join(', ')}) and the \`roles\` reader found none for this user, whose claims have ${where}: set \`roles: ${reader}\` in the config. Until then, access is denied.`,
  );
}
