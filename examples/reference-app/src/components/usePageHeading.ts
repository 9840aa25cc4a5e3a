import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { useLocation } from 'react-router';

/** The app's name, after each page's own in the document title. */
const appName = 'Acme Orders';

/**
 * Every page is named by its `<h1>` inside `main`: the document title says it (WCAG 2.4.2), and
 * after a navigation focus moves to it, so keyboard and screen-reader users start on the new
 * page rather than on the link they left (WCAG 2.4.3). The first page keeps the browser's focus.
 */
export function usePageHeading(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  // The path whose heading was last shown: the one the app opened on needs no focus move.
  const shown = useRef(pathname);
  // Whenever the page changes: an error page or a loaded one may replace the heading in place.
  useEffect(() => {
    const target = main.current;
    if (target === null) return;
    const name = () => {
      const heading = target.querySelector('h1')?.textContent;
      if (heading) document.title = `${heading} · ${appName}`;
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(target, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [main]);
  useEffect(() => {
    const heading = main.current?.querySelector('h1');
    if (shown.current === pathname || heading == null) return;
    shown.current = pathname;
    heading.tabIndex = -1;
    heading.focus();
  }, [pathname, main]);
}
