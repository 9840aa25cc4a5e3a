import type { UserManager } from 'oidc-client-ts';

/** Where oidc-client-ts 3.5 keeps the token endpoint's two clients inside a `UserManager`. */
interface OidcClientInside<Service> {
  _tokenClient?: { _jsonService?: Service };
  _validator?: { _tokenClient?: { _jsonService?: Service } };
}

/**
 * The services through which `manager` sends its token requests: the refresh's, and the code
 * exchange's. They are oidc-client-ts's internals: another version may have neither (undefined),
 * and `Service` is what the caller counts on finding in them.
 */
export function tokenServices<Service>(manager: UserManager): (Service | undefined)[] {
  const inner = (manager as unknown as { _client?: OidcClientInside<Service> })._client;
  return [inner?._tokenClient?._jsonService, inner?._validator?._tokenClient?._jsonService];
}
