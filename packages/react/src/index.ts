export { AuthError, authErrorCatalogue, authErrorCodes, isAuthError } from './core/errors';
export type { AuthErrorCatalogueEntry, AuthErrorCode, AuthErrorOptions } from './core/errors';
export { authConfigDefaults, validateConfig } from './core/config';
export type {
  AuthConfig,
  AuthOptions,
  OidcSettings,
  ResolvedAuthConfig,
  TokenStorage,
} from './core/config';
export { safeReturnTo } from './core/returnTo';
