export { returnToFromRequest } from './returnToFromRequest';
export { requireAuth, waitForAuth } from './requireAuth';
export type { AuthGuardFailure, LoaderAuthClient } from './requireAuth';
export { AuthCallback } from './AuthCallback';
export type { AuthCallbackProps } from './AuthCallback';
