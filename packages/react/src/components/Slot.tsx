import { Children, cloneElement, forwardRef, isValidElement } from 'react';
import type { HTMLAttributes, ReactNode, Ref, SyntheticEvent } from 'react';
import { composeEventHandlers } from './composeEventHandlers';

type AnyProps = Record<string, unknown>;

function composeRefs<T>(...refs: (Ref<T> | undefined)[]): (node: T) => void {
  return (node) => {
    for (const ref of refs) {
      if (typeof ref === 'function') ref(node);
      else if (ref !== null && ref !== undefined) (ref as { current: T }).current = node;
    }
  };
}

function mergeProps(ours: AnyProps, theirs: AnyProps): AnyProps {
  const merged: AnyProps = { ...ours, ...theirs };
  for (const key of Object.keys(ours)) {
    const mine = ours[key];
    const child = theirs[key];
    // A handler, class or style the child passes on as undefined leaves ours in place.
    if (/^on[A-Z]/.test(key) && typeof mine === 'function') {
      merged[key] =
        typeof child === 'function'
          ? composeEventHandlers(
              child as (event: SyntheticEvent) => void,
              mine as (event: SyntheticEvent) => void,
            )
          : mine;
    } else if (key === 'className') {
      merged[key] = [mine, child].filter(Boolean).join(' ');
    } else if (key === 'style') {
      merged[key] = { ...(mine as object), ...(child as object) };
    }
  }
  return merged;
}

/** Renders its only child with these props merged in (for `asChild`). */
// Pure: dropped from bundles that use neither button.
export const Slot = /* @__PURE__ */ forwardRef<
  HTMLElement,
  HTMLAttributes<HTMLElement> & { children?: ReactNode }
>(function Slot({ children, ...props }, ref) {
  const child = Children.only(children);
  if (!isValidElement<AnyProps>(child)) return null;
  const merged = mergeProps(props as AnyProps, child.props);
  // React 19 keeps the child's ref in its props (copied into `merged`); React 18 on the element,
  // where its props' `ref` is a getter that warns when read (and that a spread skips).
  const childRef = (merged.ref ?? (child as unknown as { ref?: unknown }).ref) as
    Ref<HTMLElement> | undefined;
  // No ref of ours, none added: React 18 warns when a component without forwardRef gets one.
  merged.ref = ref ? composeRefs(ref, childRef) : childRef;
  return cloneElement(child, merged);
});
