// Preloaded (`node --import`) before the jsdom measurements, so that react-dom and
// react-oidc-context see a browser when they load. Node's own fetch, URL, crypto, BroadcastChannel,
// timers and events stay; the page's window, document, location, history and storage come from jsdom.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
  url: 'http://localhost:3000/',
  pretendToBeVisual: true,
});
const window = dom.window as unknown as Record<string, unknown>;
const target = globalThis as unknown as Record<string, unknown>;

const keys = new Set<string>();
for (
  let object: object | null = dom.window;
  object !== null && object !== Object.prototype;
  object = Object.getPrototypeOf(object)
) {
  for (const key of Object.getOwnPropertyNames(object)) keys.add(key);
}
for (const key of keys) {
  if (key in target || key.startsWith('_') || key === 'constructor') continue;
  const value = window[key];
  target[key] =
    typeof value === 'function' && !/^[A-Z]/.test(key)
      ? (value as () => unknown).bind(dom.window)
      : value;
}
// Listeners on the global object are the window's (AuthClient listens for `pageshow`).
for (const key of ['addEventListener', 'removeEventListener', 'dispatchEvent']) {
  target[key] = (window[key] as () => unknown).bind(dom.window);
}
target.window = dom.window;
