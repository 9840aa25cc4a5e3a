/**
 * Removes the `names` parameters from the address bar, from the query and from a fragment that
 * holds any (`history.replaceState`, no navigation), while the page is still at `url`.
 */
export function removeFromAddress(url: string, names: readonly string[]): void {
  const clean = new URL(url);
  const fragment = new URLSearchParams(clean.hash.slice(1));
  if (names.some((name) => fragment.has(name))) {
    for (const name of names) fragment.delete(name);
    clean.hash = fragment.toString();
  }
  for (const name of names) clean.searchParams.delete(name);
  if (globalThis.location.href === url) {
    history.replaceState(history.state, '', `${clean.pathname}${clean.search}${clean.hash}`);
  }
}
