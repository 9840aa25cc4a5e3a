import { Children } from 'react';
import type { ReactNode } from 'react';

/**
 * Development only (call it behind a `process.env.NODE_ENV` check): with `asChild`, `component`
 * renders its child in place of its button, so the child must be one element. Says so, instead
 * of React's generic `Children.only` message (kept as `cause`).
 */
export function checkAsChild(
  component: string,
  { asChild, children }: { asChild?: boolean; children?: ReactNode },
): void {
  if (!asChild) return;
  try {
    // What Slot will ask of the child; `Children`, unlike `isValidElement`, is imported up front
    // already, and production bundles keep an external package's imports whether used or not.
    Children.only(children);
  } catch (cause) {
    throw new Error(
      `<${component} asChild> needs exactly one element as its child, which it renders with the button's behaviour merged in: <${component} asChild><a href="/account">Account</a></${component}>. Text, several elements or none cannot take it; leave out asChild to get a <button>.`,
      { cause },
    );
  }
}
