import type { User } from 'oidc-client-ts';
import { jwtDecode } from 'jwt-decode';

/** Reads the user's roles (or groups) from their claims. */
export type RoleReader = (user: User) => string[];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

function at(claims: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = claims;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The access token's claims when it is a JWT, else none. */
export function accessTokenClaims(user: User): Record<string, unknown> {
  try {
    const claims: unknown = jwtDecode(user.access_token);
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {}; // an opaque access token carries no claims
  }
}

/** Claims from the ID token (profile) first, then from a JWT access token. */
function fromClaims(read: (claims: Record<string, unknown>) => string[]): RoleReader {
  return (user) => {
    const fromProfile = read(user.profile as Record<string, unknown>);
    return fromProfile.length > 0 ? fromProfile : read(accessTokenClaims(user));
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** A claim by dotted path, e.g. `roles` or `app_metadata.roles`. A string is split on spaces or commas. */
function claimReader(path: string): RoleReader {
  const keys = path.split('.');
  return fromClaims((claims) => strings(at(claims, keys)));
}

/**
 * Role readers for common providers, for the `roles` option. Each reads the ID token's claims,
 * and the access token's when it is a JWT and the ID token has none.
 *
 * @example
 * <AuthProvider config={{ ...settings, roles: roleReaders.keycloak({ clientId: 'web' }) }}>
 */
export const roleReaders = {
  /** A claim by dotted path, e.g. `roles` or `app_metadata.roles`. A string is split on spaces or commas. */
  claim: claimReader,
  /** Keycloak: realm roles (`realm_access.roles`) and, with `clientId`, that client's roles. */
  keycloak(options: { clientId?: string } = {}): RoleReader {
    return fromClaims((claims) =>
      unique([
        ...strings(at(claims, ['realm_access', 'roles'])),
        ...(options.clientId === undefined
          ? []
          : strings(at(claims, ['resource_access', options.clientId, 'roles']))),
      ]),
    );
  },
  /** Microsoft Entra ID: app roles (`roles`) and group ids (`groups`). */
  entra(): RoleReader {
    return fromClaims((claims) => unique([...strings(claims.roles), ...strings(claims.groups)]));
  },
  /** Auth0: the namespaced claim your Action sets, e.g. `https://example.com/roles`. */
  auth0(claim: string): RoleReader {
    return fromClaims((claims) => strings(claims[claim]));
  },
  /** Okta: `groups` (add a groups claim to the authorization server). */
  okta(): RoleReader {
    return fromClaims((claims) => strings(claims.groups));
  },
  /** Amazon Cognito: user pool groups (`cognito:groups`). */
  cognito(): RoleReader {
    return fromClaims((claims) => strings(claims['cognito:groups']));
  },
} as const;

/**
 * The default reader: a plain `roles` claim. Built without `roleReaders`, so that an app using the
 * default does not bundle the other providers' readers.
 */
export const defaultRoleReader: RoleReader = /* @__PURE__ */ claimReader('roles');
