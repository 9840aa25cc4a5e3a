export { AuthProvider } from './AuthProvider';
export type { AuthProviderProps } from './AuthProvider';
export { AuthContext } from './authContext';
export type { AuthContextValue } from './authContext';

export { useAuth } from './hooks/useAuth';
export type { UseAuthResult } from './hooks/useAuth';
export { useAuthActions } from './hooks/useAuthActions';
export type { AuthActions } from './hooks/useAuthActions';
export { useAuthState } from './hooks/useAuthState';
export { useUser } from './hooks/useUser';
export type { UserClaims } from './hooks/useUser';
export { useAccessToken } from './hooks/useAccessToken';
export { useAuthFetch } from './hooks/useAuthFetch';
export { useAuthHeaders } from './hooks/useAuthHeaders';
export type { GetAuthHeaders } from './hooks/useAuthHeaders';
export { useSessionExpiry } from './hooks/useSessionExpiry';
export type { SessionExpiry } from './hooks/useSessionExpiry';
export { useIdle } from './hooks/useIdle';
export type { IdleState } from './hooks/useIdle';
export { useAccess } from './hooks/useAccess';
export type { Access } from './hooks/useAccess';

export { RequireAuth } from './components/RequireAuth';
export { AuthPending } from './components/AuthPending';
export { AuthForbidden } from './components/AuthForbidden';
export { AuthErrorMessage } from './components/AuthErrorMessage';
export type { AuthErrorMessageProps } from './components/AuthErrorMessage';
export { AuthSignInNeeded } from './components/AuthSignInNeeded';
export type { AuthSignInNeededProps } from './components/AuthSignInNeeded';
export { describeSignInError } from './components/describeSignInError';
export type { RequireAuthProps } from './components/RequireAuth';
export { SignInButton } from './components/SignInButton';
export type { SignInButtonProps } from './components/SignInButton';
export { SignOutButton } from './components/SignOutButton';
export type { SignOutButtonProps } from './components/SignOutButton';
export { SignedIn } from './components/SignedIn';
export { SignedOut } from './components/SignedOut';
export { IdleWarning } from './components/IdleWarning';
export type { IdleWarningProps } from './components/IdleWarning';
export { Authorized } from './components/Authorized';
export type { AuthorizedProps } from './components/Authorized';

export { AuthClient } from './core/AuthClient';
export type { AuthClientConfig } from './core/clientConfig';
export type {
  AuthClientEnvironment,
  AuthHeadersOptions,
  SignInOptions,
  SignOutOptions,
} from './core/clientOptions';
export type { IdleControl, IdleSnapshot } from './core/idleSnapshot';
export type { IdleOptions } from './core/idleConfig';
export type { AuthSnapshot, AuthStatus, SignOutReason } from './core/authState';
export { createAuthFetch } from './core/createAuthFetch';
export type { AuthFetch, TokenSource } from './core/authFetch';
export type { ChannelLike, LockManagerLike } from './core/tabSync';
export type { IdTokenCheck } from './core/idToken';

export { AuthError, authErrorCatalogue, authErrorCodes, isAuthError } from './core/errors';
export type { AuthErrorCatalogueEntry, AuthErrorCode, AuthErrorOptions } from './core/errors';
export { authConfigDefaults, validateConfig } from './core/config';
export type {
  AuthConfig,
  AuthOptions,
  OidcSettings,
  ResolvedAuthConfig,
  SignatureVerifier,
  TokenStorage,
} from './core/configTypes';
export { safeReturnTo } from './core/returnTo';
export { defaultRoleReader, roleReaders } from './core/roles';
export type { RoleReader } from './core/roles';
export { checkAccess } from './core/checkAccess';
export type { AccessRequirements } from './core/checkAccess';
