import { authError, isAuthError } from './errors';
import type { AuthError } from './errors';
import { loopbackHosts } from './loopback';

/**
 * What a failed discovery request means, naming the URL tried: a document that is not there (an
 * error status, or a page that is not JSON) is a wrong `authority`; no answer at all is `network`.
 * Returns null for other failures (a timeout), which `toAuthError` maps as usual.
 */
export function discoveryError(cause: unknown, url: string): AuthError | null {
  if (isAuthError(cause)) return null;
  const { name, message = '' } = (cause ?? {}) as { name?: unknown; message?: string };
  if (name === 'TypeError') {
    return authError(
      'network',
      process.env.NODE_ENV !== 'production' && [
        `The identity provider could not be reached at ${url}: the browser is offline, the host does not answer, or it answers without CORS headers for this origin. Check \`authority\` if the URL looks wrong.` +
          // On this machine, the likeliest cause is a provider not started (the dev provider's own).
          (loopbackHosts.has(new URL(url).hostname)
            ? ' Is the provider running? The dev provider starts with `npx oidc-kit-dev-provider`.'
            : ''),
        'Nothing was sent to the identity provider.',
      ],
      { cause },
    );
  }
  const status = /\((\d{3})\)/.exec(message)?.[1];
  // oidc-client-ts checks the type before the status: a server's 404 page arrives as this.
  const type = /^Invalid response Content-Type: ([^,]*)/.exec(message)?.[1];
  if (type === undefined && (status === undefined || !status.startsWith('4'))) return null;
  return authError(
    'config_invalid',
    process.env.NODE_ENV !== 'production' && [
      `oidc-kit config: \`authority\` leads to no discovery document: ${url} answered ${type === undefined ? `HTTP ${status}` : `${type}, not JSON (a web server's error page, usually a 404)`}. Set \`authority\` to the provider's issuer URL, the one its discovery document names (for Keycloak https://host/realms/<realm>).`,
      'Nothing was sent to the identity provider.',
    ],
    { cause, field: 'authority' },
  );
}
