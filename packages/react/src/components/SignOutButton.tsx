import { forwardRef } from 'react';
import type { ButtonHTMLAttributes } from 'react';
import type { SignOutOptions } from '../core/clientOptions';
import { useAuthClient } from '../hooks/useAuthClient';
import { useSelectedAuthState } from '../hooks/useSelectedAuthState';
import { AuthActionButton } from './AuthActionButton';
import { checkAsChild } from './checkAsChild';

/** Props of {@link SignOutButton}: a button's, plus how to sign out. */
export interface SignOutButtonProps
  extends ButtonHTMLAttributes<HTMLButtonElement>, SignOutOptions {
  /**
   * Render your own element (e.g. a link) instead of a `<button>`, with these props merged in. A
   * click signs out instead of following the link or submitting the form. A click that opens the
   * link elsewhere (Ctrl/⌘-, Shift- or Alt-click, a `target` such as `_blank`) is the browser's,
   * as a router's `<Link>` leaves it: the link opens, and this tab does not sign out.
   */
  asChild?: boolean;
}

/**
 * Signs out: clears the local session in every tab, then ends it at the provider. Your `onClick`
 * runs first and may `preventDefault()` to cancel it.
 *
 * @example
 * <SignOutButton revokeTokens />
 */
// Pure: an app that does not use it drops it from its bundle.
export const SignOutButton = /* @__PURE__ */ forwardRef<HTMLButtonElement, SignOutButtonProps>(
  function SignOutButton(
    { revokeTokens, redirect, reason, ui_locales, logout_hint, ...props },
    ref,
  ) {
    const client = useAuthClient('SignOutButton');
    if (process.env.NODE_ENV !== 'production') {
      checkAsChild('SignOutButton', props);
    }
    const signingOut = useSelectedAuthState(
      'SignOutButton',
      (state) => state.status === 'signing-out',
    );
    return (
      <AuthActionButton
        {...props}
        ref={ref}
        pending={signingOut}
        defaultLabel="Sign out"
        action={() => client.signOut({ revokeTokens, redirect, reason, ui_locales, logout_hint })}
      />
    );
  },
);
