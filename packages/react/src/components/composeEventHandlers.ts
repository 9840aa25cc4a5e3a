/**
 * One handler from two, as Radix composes them: `theirs` (the app's) runs first, and `ours` runs
 * unless it called `event.preventDefault()`.
 */
export function composeEventHandlers<E extends { defaultPrevented: boolean }>(
  theirs: ((event: E) => void) | undefined,
  ours: (event: E) => void,
): (event: E) => void {
  return (event) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}
