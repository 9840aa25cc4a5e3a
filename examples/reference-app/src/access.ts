import type { AccessRequirements } from '@oidc-kit/react';

/**
 * Who may open what, by name. A guarded page's loader (`loaders.ts`) and its link
 * (`navigation.ts`) take the same entry, so the link shows exactly to the users the page lets in.
 */
export const access = {
  /** Any signed-in user. */
  signedIn: {},
  /** Users with the `admin` role; the API's endpoints for them ask the access token for it too. */
  admin: { roles: ['admin'] },
} satisfies Record<string, AccessRequirements>;
