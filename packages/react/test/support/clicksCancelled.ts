import { onTestFinished } from 'vitest';

/**
 * Whether each click that reached the window, from now to the end of the test, had its default
 * action (following a link, submitting a form) cancelled. Then the test cancels it: jsdom cannot
 * follow a link to another document, as a browser would open one the app leaves to it.
 */
export function clicksCancelled(): boolean[] {
  const cancelled: boolean[] = [];
  const listener = (event: Event) => {
    cancelled.push(event.defaultPrevented);
    event.preventDefault();
  };
  window.addEventListener('click', listener);
  onTestFinished(() => window.removeEventListener('click', listener));
  return cancelled;
}
