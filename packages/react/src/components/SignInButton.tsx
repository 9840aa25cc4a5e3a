import { forwardRef, useState } from 'react';
import type { ButtonHTMLAttributes, MouseEvent } from 'react';
import type { SignInOptions } from '../core/AuthClient';
import { useAuthClient } from '../hooks/useAuthClient';
import { useSelectedAuthState } from '../hooks/useAuthState';
import { Slot } from './Slot';

/** Props of {@link SignInButton}: a button's, plus where and how to sign in. */
export interface SignInButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Render your own element (e.g. a link) instead of a `<button>`, with these props merged in. */
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
 * (`aria-busy`, disabled) while sign-in runs.
 *
 * @example
 * <SignInButton returnTo="/dashboard">Sign in to continue</SignInButton>
 */
// Pure: an app that does not use it drops it from its bundle.
export const SignInButton = /* @__PURE__ */ forwardRef<HTMLButtonElement, SignInButtonProps>(
  function SignInButton(
    { asChild = false, returnTo, popup, authorizeParams, onClick, children, disabled, ...props },
    ref,
  ) {
    const client = useAuthClient('SignInButton');
    const signingIn = useSelectedAuthState(
      'SignInButton',
      (state) => state.status === 'signing-in',
    );
    const [running, setRunning] = useState(false);
    const busy = running || signingIn;

    const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event);
      if (event.defaultPrevented || busy) return;
      setRunning(true);
      void client.signIn({ ...authorizeParams, returnTo, popup }).finally(() => setRunning(false));
    };

    const shared = { ...props, 'aria-busy': busy || undefined, onClick: handleClick };
    if (asChild) {
      return (
        <Slot {...shared} aria-disabled={busy || disabled || undefined} ref={ref as never}>
          {children}
        </Slot>
      );
    }
    return (
      <button type="button" {...shared} disabled={busy || disabled} ref={ref}>
        {children ?? 'Sign in'}
      </button>
    );
  },
);
