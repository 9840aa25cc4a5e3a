import { vi } from 'vitest';
import type { FakeProvider } from './FakeProvider';

/**
 * Watches the token requests that renew a session (refreshes, and the code exchanges of silent
 * authorizations; an interactive sign-in's exchange starts a new session) on their way to
 * `provider`, in place of the harness's `fetch`: how many are in flight, and each moment two
 * were. `failNext` makes the next one fail as fetch does offline, before the provider sees it.
 */
export function watchTokenRequests(provider: FakeProvider) {
  const silentCodes = new Set<string>();
  const authorize = provider.authorize.bind(provider);
  provider.authorize = (url, user, error) => {
    const callback = authorize(url, user, error);
    const code = new URL(callback).searchParams.get('code');
    if (new URL(url).searchParams.get('prompt') === 'none' && code !== null) silentCodes.add(code);
    return callback;
  };
  const waiting: (() => void)[] = [];
  const watch = {
    inFlight: 0,
    /** Renewal requests sent so far. */
    sent: 0,
    /** One line for each renewal request sent while another was in flight. */
    overlaps: [] as string[],
    failNext: false,
    /** Resolves at the next renewal request sent. */
    nextRequest(): Promise<void> {
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== provider.issuer || url.pathname !== '/token') return provider.fetch(request);
    const body = new URLSearchParams(await request.clone().text());
    const renewal =
      body.get('grant_type') === 'refresh_token' || silentCodes.has(body.get('code') ?? '');
    if (!renewal) return provider.fetch(request);
    watch.sent += 1;
    for (const resolve of waiting.splice(0)) resolve();
    if (watch.inFlight > 0) {
      watch.overlaps.push(`${body.get('grant_type')} sent with ${watch.inFlight} in flight`);
    }
    if (watch.failNext) {
      watch.failNext = false;
      throw new TypeError('Failed to fetch');
    }
    watch.inFlight += 1;
    try {
      return await provider.fetch(request);
    } finally {
      watch.inFlight -= 1;
    }
  });
  return watch;
}
