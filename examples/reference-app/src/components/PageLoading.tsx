/** What the page area shows while a page's data loads before it can show. */
export function PageLoading() {
  return <p role="status">Loading…</p>;
}
