/**
 * The hosts of this machine: where plain `http:` is allowed (`config.ts`), and where a provider
 * that does not answer is likely a dev provider not started (`discoveryError.ts`).
 */
export const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `url` may carry codes and tokens: `https:`, or plain `http:` on this machine only. */
export function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
}
