/**
 * Removes the `names` parameters from the address bar (`history.replaceState`, no navigation),
 * while the page is still at `url`.
 */
export function removeFromAddress(url: string, names: readonly string[]): void {
  const clean = new URL(url);
  for (const name of names) clean.searchParams.delete(name);
  if (globalThis.location.href === url) {
    history.replaceState(history.state, '', `${clean.pathname}${clean.search}${clean.hash}`);
  }
}
