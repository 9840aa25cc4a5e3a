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

/**
 * A click on a link (only asChild's element can be one) that the browser opens in a new tab or
 * window, or downloads: a modified or non-primary click, or a target of the link's own, as React
 * Router's `<Link>` leaves them. (Browsers send a middle click as `auxclick`, never as `click`.)
 */
function opensElsewhere(event: MouseEvent) {
  // A button's `href` is undefined; a link's without one, ''; an SVG link's an object (its action
  // runs, as a button's).
  const { href, target } = event.currentTarget as EventTarget as HTMLAnchorElement;
  return (
    typeof href == 'string' &&
    href &&
    (event.button ||
      event.ctrlKey ||
      event.metaKey ||
      event.shiftKey ||
      event.altKey ||
      (target && target !== '_self'))
  );
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

  const handleClick = composeEventHandlers<MouseEvent<HTMLButtonElement>>(onClick, (event) => {
    // Unless disabled, a click that opens asChild's link elsewhere is the browser's.
    if (!disabled && opensElsewhere(event)) return;
    // Any other click is the action's, busy or not: asChild's link is not followed, its submit
    // button does not submit the form.
    event.preventDefault();
    // Busy is only aria-disabled (and asChild's element has no `disabled`): the click arrives.
    if (busy || disabled) return;
    setRunning(true);
    void reportRejection(action()).then(() => setRunning(false));
  });

  // Busy, the button is not `disabled`: the browser would move focus off it, to <body>.
  const shared = {
    ...props,
    'aria-disabled': busy || disabled || props['aria-disabled'],
    'aria-busy': busy || undefined,
    onClick: handleClick,
  };
  if (asChild) {
    return (
      <Slot {...shared} ref={ref as never}>
        {children}
      </Slot>
    );
  }
  return (
    <button type="button" {...shared} disabled={disabled} ref={ref}>
      {children ?? defaultLabel}
    </button>
  );
});
