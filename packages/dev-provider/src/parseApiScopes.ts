import { DevProviderConfigError, type ConfigErrorLocation } from './DevProviderConfigError.js';

/** Scopes an access token for the API may carry whatever else is given: the OpenID ones. */
export const builtInApiScopes: readonly string[] = ['openid', 'profile', 'email', 'roles'];

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). oidc-provider refuses a `scope`
// parameter with any other character, so a scope outside it could never be asked for.
const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Throws a `DevProviderConfigError` at `location` unless `scope` is one scope-token. */
export function checkScopeToken(scope: string, location: ConfigErrorLocation): void {
  if (!scopeToken.test(scope)) {
    throw new DevProviderConfigError(
      location,
      `${JSON.stringify(scope)} is not a scope (RFC 6749 §3.3): use printable ASCII characters other than space, " and \\, e.g. invoices:read.`,
    );
  }
}

/**
 * The scopes the API's access tokens may carry: the built-in ones, then those of the `apiScopes`
 * option, once each. Throws a `DevProviderConfigError` naming the entry that is not one scope.
 */
export function parseApiScopes(value: unknown): string[] {
  const option = { kind: 'option', source: 'apiScopes' };
  if (value === undefined) return [...builtInApiScopes];
  if (!Array.isArray(value)) {
    throw new DevProviderConfigError(
      option,
      "must be an array of scopes, e.g. apiScopes: ['invoices:read'].",
    );
  }
  value.forEach((scope: unknown, index) => {
    const entry = { ...option, index };
    if (typeof scope !== 'string') {
      throw new DevProviderConfigError(entry, "must be a string, e.g. 'invoices:read'.");
    }
    const words = scope.split(' ').filter(Boolean);
    if (words.length > 1) {
      const list = words.map((word) => `'${word}'`).join(', ');
      throw new DevProviderConfigError(
        entry,
        `${JSON.stringify(scope)} has a space. Give each scope as its own entry, e.g. apiScopes: [${list}].`,
      );
    }
    checkScopeToken(scope, entry);
  });
  return [...new Set([...builtInApiScopes, ...(value as string[])])];
}
