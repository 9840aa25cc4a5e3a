import { forwardRef, useState } from 'react';
import type { ButtonHTMLAttributes, MouseEvent } from 'react';
import type { SignOutOptions } from '../core/AuthClient';
import { useAuthClient } from '../hooks/useAuthClient';
import { useSelectedAuthState } from '../hooks/useAuthState';
import { Slot } from './Slot';

/** Props of {@link SignOutButton}: a button's, plus how to sign out. */
export interface SignOutButtonProps
  extends ButtonHTMLAttributes<HTMLButtonElement>, SignOutOptions {
  /** Render your own element (e.g. a link) instead of a `<button>`, with these props merged in. */
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
    { asChild = false, revokeTokens, redirect, onClick, children, disabled, ...props },
    ref,
  ) {
    const client = useAuthClient('SignOutButton');
    const signingOut = useSelectedAuthState(
      'SignOutButton',
      (state) => state.status === 'signing-out',
    );
    const [running, setRunning] = useState(false);
    const busy = running || signingOut;

    const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event);
      if (event.defaultPrevented || busy) return;
      setRunning(true);
      void client.signOut({ revokeTokens, redirect }).finally(() => setRunning(false));
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
        {children ?? 'Sign out'}
      </button>
    );
  },
);
