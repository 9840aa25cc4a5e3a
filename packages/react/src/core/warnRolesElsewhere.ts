import type { User } from 'oidc-client-ts';
import { accessTokenClaims, roleReaders } from './roles';
import type { RoleReader } from './roles';

/** Where a provider puts roles by default, and the reader (as the config would name it) for there. */
interface Place {
  where: string;
  reader: string;
  read: RoleReader;
}

/**
 * The places of roles, as this user's claims name them: the providers' own, then a plain `roles`
 * claim (the default reader's; Entra's app roles), for an app that set a provider's reader.
 */
function placesIn(claims: Record<string, unknown>): Place[] {
  // `azp` is the client the token was issued to: its own roles are under that id.
  const clientId = typeof claims.azp === 'string' ? claims.azp : undefined;
  const places: Place[] = [
    {
      where: 'realm_access.roles (Keycloak)',
      reader: `roleReaders.keycloak(${clientId === undefined ? '' : `{ clientId: '${clientId}' }`})`,
      read: roleReaders.keycloak(clientId === undefined ? {} : { clientId }),
    },
    {
      where: 'cognito:groups (Cognito)',
      reader: 'roleReaders.cognito()',
      read: roleReaders.cognito(),
    },
  ];
  // Auth0 takes custom claims under a namespace, a URL: https://example.com/roles.
  for (const key of Object.keys(claims).filter((name) =>
    /^https?:\/\/.*\/(roles|groups)$/.test(name),
  )) {
    places.push({
      where: `${key} (Auth0)`,
      reader: `roleReaders.auth0('${key}')`,
      read: roleReaders.auth0(key),
    });
  }
  places.push({
    where: 'groups (Okta, Entra ID)',
    reader: 'roleReaders.okta() (or roleReaders.entra())',
    read: roleReaders.okta(),
  });
  places.push({
    where: 'roles',
    reader: "roleReaders.claim('roles')",
    read: roleReaders.claim('roles'),
  });
  return places;
}

const warned = /* @__PURE__ */ new WeakSet<User>();

/**
 * Development builds only (called behind a `NODE_ENV` check): roles are required, the reader found
 * none, and a provider's usual place in the user's claims holds one of them. The guard denies
 * access, which looks right; this names the reader that would let the user in. Only then: a user
 * whose claims hold other roles (or none) is one the app's reader rightly denies. Once per user.
 */
export function warnRolesElsewhere(user: User, required: readonly string[]): void {
  if (warned.has(user)) return;
  const claims = { ...accessTokenClaims(user), ...(user.profile as Record<string, unknown>) };
  const found = placesIn(claims).find(({ read }) =>
    read(user).some((role) => required.includes(role)),
  );
  if (found === undefined) return;
  warned.add(user);
  console.warn(
    `oidc-kit: access needs a role (${required.join(', ')}) and the \`roles\` reader found none for this user, whose claims have it at ${found.where}: set \`roles: ${found.reader}\` in the config. Until then, access is denied.`,
  );
}
