import { useContext, useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { AuthContext, useAuthState } from '@oidc-kit/react';

/**
 * Runs the open page's loaders again when the signed-in user changes (signed out here or in
 * another tab, the session ended, another user signed in) or their roles or scopes do (a renewal
 * without a revoked role), so the page is guarded anew. Returns true until they have run: the page
 * on screen was loaded for the previous user, and is not to be shown meanwhile. The first settled
 * state and token renewals that change none of these change nothing.
 */
export function useRevalidateOnUserChange(): boolean {
  const client = useContext(AuthContext);
  // undefined until the session is known; then the user's subject, roles (as the guards read them)
  // and scopes, or null.
  const subject = useAuthState((state) =>
    state.status === 'loading'
      ? undefined
      : state.user &&
        [state.user.profile.sub, client?.readRoles(state.user).join(' '), state.user.scope].join(
          '\n',
        ),
  );
  const { revalidate } = useRevalidator();
  // Whom the page on screen was loaded for: the first settled subject, then each revalidated one.
  const [loadedFor, setLoadedFor] = useState(subject);
  if (loadedFor === undefined && subject !== undefined) setLoadedFor(subject);
  // Decided while rendering, so the render that brings the new user already hides the old page.
  const stale = loadedFor !== undefined && subject !== undefined && subject !== loadedFor;
  const asked = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!stale || asked.current === subject) return;
    // Once per subject (StrictMode runs effects twice); a later subject asks again.
    asked.current = subject;
    // A sign-in redirect keeps it pending until the page leaves.
    void revalidate().finally(() => {
      if (asked.current === subject) setLoadedFor(subject);
    });
  }, [stale, subject, revalidate]);
  return stale;
}
