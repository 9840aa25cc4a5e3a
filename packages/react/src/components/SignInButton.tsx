import { forwardRef } from 'react';
import type { ButtonHTMLAttributes } from 'react';
import type { SignInOptions } from '../core/clientOptions';
import { useAuthClient } from '../hooks/useAuthClient';
import { useSelectedAuthState } from '../hooks/useSelectedAuthState';
import { AuthActionButton } from './AuthActionButton';
import { checkAsChild } from './checkAsChild';

/** Props of {@link SignInButton}: a button's, plus where and how to sign in. */
export interface SignInButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /**
   * Render your own element (e.g. a link) instead of a `<button>`, with these props merged in. A
   * click signs in instead of following the link or submitting the form. A click that opens the
   * link elsewhere (Ctrl/⌘-, Shift- or Alt-click, a `target` such as `_blank`) is the browser's,
   * as a router's `<Link>` leaves it: the link opens, and this tab does not sign in.
   */
  asChild?: boolean;
  /** Where to land after sign-in: a same-origin path. Default: the current location. */
  returnTo?: string;
  /** Sign in in a popup instead of redirecting. */
  popup?: boolean;
  /** Authorize parameters: `prompt`, `login_hint`, `ui_locales`, `extraQueryParams`. */
  authorizeParams?: Omit<SignInOptions, 'returnTo' | 'popup'>;
}

/**
 * Starts sign-in. Your `onClick` runs first and may `preventDefault()` to cancel it. Busy
 * (`aria-busy`, `aria-disabled`: it keeps focus) while sign-in runs.
 *
 * @example
 * <SignInButton returnTo="/dashboard">Sign in to continue</SignInButton>
 */
// Pure: an app that does not use it drops it from its bundle.
export const SignInButton = /* @__PURE__ */ forwardRef<HTMLButtonElement, SignInButtonProps>(
  function SignInButton({ returnTo, popup, authorizeParams, ...props }, ref) {
    const client = useAuthClient('SignInButton');
    if (process.env.NODE_ENV !== 'production') {
      checkAsChild('SignInButton', props);
    }
    const signingIn = useSelectedAuthState(
      'SignInButton',
      (state) => state.status === 'signing-in',
    );
    return (
      <AuthActionButton
        {...props}
        ref={ref}
        pending={signingIn}
        defaultLabel="Sign in"
        action={() => client.signIn({ ...authorizeParams, returnTo, popup })}
      />
    );
  },
);
