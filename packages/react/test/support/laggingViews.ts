/**
 * Two tabs' views of the shared storage (localStorage) in which each tab sees the other's writes
 * of the keys `lagging` picks `lag` ms late: a write may reach another tab's process after a lock
 * or a channel message does, as browsers order neither against the other. With `events`, a write
 * that lands fires a `storage` event then, as a browser fires it in the other tabs.
 */
export function laggingViews(
  shared: Storage,
  lag: number,
  lagging: (key: string) => boolean,
  events = false,
): [Storage, Storage] {
  const views = [new Map<string, string>(), new Map<string, string>()];
  const land = (tab: 0 | 1, key: string, value: string | null) =>
    setTimeout(() => {
      if (value === null) views[tab]?.delete(key);
      else views[tab]?.set(key, value);
      if (events) globalThis.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
    }, lag);
  const view = (tab: 0 | 1): Storage =>
    ({
      get length() {
        return shared.length;
      },
      key: (index: number) => shared.key(index),
      clear: () => shared.clear(),
      getItem: (key: string) =>
        lagging(key) ? (views[tab]?.get(key) ?? null) : shared.getItem(key),
      setItem: (key: string, value: string) => {
        if (!lagging(key)) return shared.setItem(key, value);
        views[tab]?.set(key, value);
        land(tab === 0 ? 1 : 0, key, value);
      },
      removeItem: (key: string) => {
        if (!lagging(key)) return shared.removeItem(key);
        views[tab]?.delete(key);
        land(tab === 0 ? 1 : 0, key, null);
      },
    }) as Storage;
  return [view(0), view(1)];
}
