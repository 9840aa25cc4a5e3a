import { forwardRef, useState } from 'react';
import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { reportRejection } from '../reportRejection';
import { Slot } from './Slot';
import { composeEventHandlers } from './composeEventHandlers';

/** What the sign-in and sign-out buttons share: composed click, busy state, `asChild`. */
export interface AuthActionButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  asChild?: boolean;
  /** The action; its promise keeps the button busy until it settles. */
  action: () => Promise<void>;
  /** Busy for a reason outside this button (the state is mid-way already). */
  pending: boolean;
  defaultLabel: ReactNode;
}

/** A `<button type="button">` (or, with `asChild`, your element) that runs an auth action. */
// Pure: dropped from bundles that use neither button.
export const AuthActionButton = /* @__PURE__ */ forwardRef<
  HTMLButtonElement,
  AuthActionButtonProps
>(function AuthActionButton(
  { asChild = false, action, pending, defaultLabel, onClick, children, disabled, ...props },
  ref,
) {
  const [running, setRunning] = useState(false);
  // Once the state shows the action under way, the state says when it ends: a redirect that never
  // left the page (the user chose to stay) leaves `action()` unsettled for good.
  if (running && pending) setRunning(false);
  const busy = running || pending;

  const handleClick = composeEventHandlers(onClick, (_event: MouseEvent<HTMLButtonElement>) => {
    // With asChild the element is only aria-disabled: the click still arrives.
    if (busy || disabled) return;
    setRunning(true);
    void reportRejection(action()).then(() => setRunning(false));
  });

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
      {children ?? defaultLabel}
    </button>
  );
});
