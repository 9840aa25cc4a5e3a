import { createRemoteJWKSet } from 'jose';
import type { JWTVerifyGetKey } from 'jose';
import { ProviderUnavailableError } from './ProviderUnavailableError';

/** Options for {@link createProviderKeys}. */
export interface ProviderKeysOptions {
  /** The provider's issuer, as tokens carry it in `iss`. */
  readonly issuer: string;
  /** The JWKS URL. When left out it is read from the issuer's discovery document on first use. */
  readonly jwksUri?: string | URL | undefined;
  /** Milliseconds before a discovery or JWKS request is given up. Default 5000. */
  readonly timeoutMs?: number;
}

/** The issuer's OpenID Connect discovery document URL (`/.well-known/openid-configuration`). */
export function discoveryUrl(issuer: string): URL {
  // OIDC Discovery 1.0 §4: strip one trailing slash from the issuer, then append the path.
  return new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
}

/**
 * Reads `jwks_uri` from the issuer's discovery document.
 *
 * @throws {ProviderUnavailableError} when the document cannot be fetched or is unusable,
 * including when its `issuer` is not exactly the configured one (OIDC Discovery 1.0 §4.3).
 */
export async function discoverJwksUri(issuer: string, timeoutMs = 5000): Promise<URL> {
  const url = discoveryUrl(issuer);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    throw new ProviderUnavailableError(`could not fetch ${url.href}`, { cause });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new ProviderUnavailableError(`${url.href} answered ${response.status}`);
  }
  let document: unknown;
  try {
    document = await response.json();
  } catch (cause) {
    throw new ProviderUnavailableError(`${url.href} did not answer JSON`, { cause });
  }
  const { issuer: documentIssuer, jwks_uri: jwksUri } = (document ?? {}) as Record<string, unknown>;
  if (documentIssuer !== issuer) {
    throw new ProviderUnavailableError(
      `${url.href} names the issuer ${JSON.stringify(documentIssuer)}, not ${JSON.stringify(issuer)}`,
    );
  }
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) {
    throw new ProviderUnavailableError(`${url.href} has no usable jwks_uri`);
  }
  const parsed = new URL(jwksUri);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ProviderUnavailableError(`${url.href} has no usable jwks_uri`);
  }
  return parsed;
}

/**
 * The provider's signing keys, for `jwtVerify`: jose's `createRemoteJWKSet` on the configured
 * JWKS URL, or on the one discovered from the issuer.
 *
 * Nothing is fetched until the first token needs a key, so the API can start before the
 * provider. A failed discovery is not remembered: the next token tries again.
 */
export function createProviderKeys(options: ProviderKeysOptions): JWTVerifyGetKey {
  const { issuer, jwksUri, timeoutMs = 5000 } = options;
  const remote = (url: URL) => createRemoteJWKSet(url, { timeoutDuration: timeoutMs });
  if (jwksUri !== undefined) return remote(new URL(jwksUri));

  let keys: Promise<JWTVerifyGetKey> | undefined;
  return async (protectedHeader, token) => {
    // One discovery at a time, however many requests arrive while it is under way.
    keys ??= discoverJwksUri(issuer, timeoutMs).then(remote, (error: unknown) => {
      keys = undefined;
      throw error;
    });
    return (await keys)(protectedHeader, token);
  };
}
