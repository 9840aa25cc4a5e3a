import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { useAuthState } from '@oidc-kit/react';

/**
 * Runs the open page's loaders again when the signed-in user changes (signed out here or in
 * another tab, the session ended, another user signed in), so the page is guarded anew. Returns
 * true until they have run: the page on screen was loaded for the previous user, and is not to be
 * shown meanwhile. The first settled state and token renewals change nothing.
 */
export function useRevalidateOnUserChange(): boolean {
  // undefined until the session is known; then the user's subject, or null.
  const subject = useAuthState((state) =>
    state.status === 'loading' ? undefined : (state.user?.profile.sub ?? null),
  );
  const { revalidate } = useRevalidator();
  const [stale, setStale] = useState(false);
  const seen = useRef(subject);
  const runs = useRef(0);
  useEffect(() => {
    const previous = seen.current;
    seen.current = subject;
    if (previous === undefined || previous === subject) return;
    const run = (runs.current += 1);
    setStale(true);
    // A sign-in redirect keeps it pending until the page leaves.
    void revalidate().finally(() => {
      if (runs.current === run) setStale(false);
    });
  }, [subject, revalidate]);
  return stale;
}
