import { Children, cloneElement, forwardRef, useMemo } from 'react';
import type { HTMLAttributes, ReactElement, ReactNode, Ref, SyntheticEvent } from 'react';
import { composeEventHandlers } from './composeEventHandlers';

type AnyProps = Record<string, unknown>;

type Cleanup = (() => void) | void;

/** Gives `node` to a ref, as React would; returns what a callback ref returns. */
function setRef<T>(ref: Ref<T> | undefined, node: T | null): unknown {
  if (typeof ref === 'function') return ref(node);
  // Nothing returned: an object ref's value (a handle may be a function) is no cleanup.
  if (ref) (ref as { current: T | null }).current = node;
}

/**
 * One ref callback for both refs. When a ref returns a cleanup, React 19 runs what this returns on
 * detach instead of calling it with null: that ref's cleanup, and null for the other. (Returning a
 * function only then: React 18 warns at any function a ref returns.)
 */
function composeRefs<T>(...refs: (Ref<T> | undefined)[]): (node: T | null) => Cleanup {
  return (node) => {
    const cleanups = refs.map((ref) => setRef(ref, node));
    if (cleanups.some((cleanup) => typeof cleanup === 'function')) {
      return () =>
        refs.forEach((ref, index) => {
          const cleanup = cleanups[index];
          if (typeof cleanup === 'function') cleanup();
          else setRef(ref, null);
        });
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
  // Anything but one element (text, a fragment's list) throws here, with React's message.
  const child = Children.only(children) as ReactElement<AnyProps>;
  const merged = mergeProps(props as AnyProps, child.props);
  // React 19 keeps the child's ref in its props (copied into `merged`); React 18 on the element,
  // where its props' `ref` is a getter that warns when read (and that a spread skips).
  const childRef = (merged.ref ?? (child as unknown as { ref?: unknown }).ref) as
    Ref<HTMLElement> | undefined;
  // No ref of ours, none added: React 18 warns when a component without forwardRef gets one. The
  // same callback while both refs stay: a new one would detach and attach again at each render.
  merged.ref = useMemo(() => (ref ? composeRefs(ref, childRef) : childRef), [ref, childRef]);
  return cloneElement(child, merged);
});
