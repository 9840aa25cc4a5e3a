/** The reference API's settings, read from the environment by {@link loadConfig}. */
export interface ApiConfig {
  /** The provider's issuer; tokens must carry exactly this `iss`. */
  readonly issuer: string;
  /** The audience tokens must be issued for: this API's identifier at the provider. */
  readonly audience: string;
  /** The browser origins allowed to call the API (CORS): the app's, and any other it is served at. */
  readonly appOrigins: readonly string[];
  /**
   * The origin clients call this API at, which DPoP proofs name; when unset, the server's own
   * `http://localhost:<port>`. Behind a proxy, the proxy's public origin.
   */
  readonly publicOrigin: string | undefined;
  /** The provider's JWKS URL; when unset it is discovered from the issuer on first use. */
  readonly jwksUri: string | undefined;
  /** The port to listen on. */
  readonly port: number;
  /** The environment variable the port came from, named in the message when it is taken. */
  readonly portVariable: 'REFERENCE_API_PORT' | 'PORT';
}

/** The values {@link loadConfig} uses for variables left unset. */
export const configDefaults = Object.freeze({
  issuer: 'http://localhost:4000',
  audience: 'http://localhost:4001',
  appOrigin: 'http://localhost:5173',
  port: 4001,
});

/** A setting in the environment is unusable; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

function origin(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = httpUrl(env, name, fallback);
  const { origin: parsed } = new URL(value);
  // Browsers send the Origin header without a path or trailing slash; a config with one would
  // never match and every CORS request would be refused without saying why.
  if (parsed !== value) {
    throw new ConfigError(
      `${name} must be an origin such as ${parsed}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** A comma-separated list of origins (`APP_ORIGIN`): each an origin, none empty. */
function origins(env: NodeJS.ProcessEnv, name: string, fallback: string): readonly string[] {
  const listed = (read(env, name) ?? fallback).split(',').map((item) => item.trim());
  if (listed.includes('')) {
    throw new ConfigError(
      `${name} must be one origin or several separated by commas, got ${JSON.stringify(env[name])}`,
    );
  }
  return listed.map((item) => origin({ [name]: item }, name, fallback));
}

function port(env: NodeJS.ProcessEnv): Pick<ApiConfig, 'port' | 'portVariable'> {
  const portVariable =
    read(env, 'REFERENCE_API_PORT') !== undefined ? 'REFERENCE_API_PORT' : 'PORT';
  const value = read(env, portVariable);
  if (value === undefined) return { port: configDefaults.port, portVariable: 'REFERENCE_API_PORT' };
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(parsed) || parsed > 65535) {
    throw new ConfigError(
      `${portVariable} must be a port number (0-65535), got ${JSON.stringify(value)}`,
    );
  }
  return { port: parsed, portVariable };
}

/**
 * Reads the API's settings from the environment: `OIDC_ISSUER`, `API_AUDIENCE`, `APP_ORIGIN`,
 * `API_PUBLIC_ORIGIN`, `JWKS_URI` and `REFERENCE_API_PORT` (or `PORT`; the former wins when both
 * are set).
 *
 * The issuer is kept exactly as given, trailing slash included: it is compared with the token's
 * `iss` as a plain string, and some providers (Auth0) issue `iss` with a trailing slash.
 *
 * @throws {ConfigError} when a variable is set to something unusable.
 * @example
 * const config = loadConfig({ OIDC_ISSUER: 'https://login.example.com/realms/app' });
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const jwksUri = read(env, 'JWKS_URI');
  const publicOrigin = read(env, 'API_PUBLIC_ORIGIN');
  return {
    issuer: httpUrl(env, 'OIDC_ISSUER', configDefaults.issuer),
    audience: read(env, 'API_AUDIENCE') ?? configDefaults.audience,
    appOrigins: origins(env, 'APP_ORIGIN', configDefaults.appOrigin),
    publicOrigin:
      publicOrigin === undefined ? undefined : origin(env, 'API_PUBLIC_ORIGIN', publicOrigin),
    jwksUri: jwksUri === undefined ? undefined : httpUrl(env, 'JWKS_URI', jwksUri),
    ...port(env),
  };
}
