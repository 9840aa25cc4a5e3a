import type { RefObject } from 'react';
import { usePageHeading } from './usePageHeading';

/** Names the document and moves focus after a navigation, by the page's heading (see the hook). */
export function PageHeading({ main }: { main: RefObject<HTMLElement | null> }): null {
  usePageHeading(main);
  return null;
}
