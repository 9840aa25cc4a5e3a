import { resolve } from 'node:path';
import { eachEntry, type EntryChecker, type ListSource } from './EntryChecker.js';
import { readJsonFile } from './readJsonFile.js';

/**
 * An application that signs users in through the dev provider. Every client is public (no secret),
 * must use PKCE (S256), and is first-party: no consent screen.
 */
export interface DevClient {
  client_id: string;
  /** Exact redirect URIs; any other `redirect_uri` is refused on the provider's error page. */
  redirect_uris: string[];
  /** Exact URIs allowed as `post_logout_redirect_uri` in RP-initiated logout. */
  post_logout_redirect_uris?: string[];
  /** Shown on the login page; defaults to `client_id`. */
  client_name?: string;
  /**
   * Audience of the access tokens the client gets when it names no `resource`: `'api'` (default),
   * JWTs for the reference API; `'userinfo'`, opaque tokens for the userinfo endpoint.
   */
  access_tokens_for?: 'api' | 'userinfo';
  /**
   * Requires DPoP (RFC 9449): the token endpoint then refuses requests without a proof, so every
   * access and refresh token the client gets is bound to its key. Default false: a client that
   * sends proofs gets bound tokens, one that does not gets bearer tokens.
   */
  dpop_bound_access_tokens?: boolean;
}

/** The first-party client of the oidc-kit reference app, always registered. */
export const referenceAppClient: DevClient = {
  client_id: 'reference-app',
  client_name: 'oidc-kit reference app',
  redirect_uris: ['http://localhost:5173/callback'],
  // The app's root too: the quick start's first config returns there after sign-out.
  post_logout_redirect_uris: ['http://localhost:5173/signed-out', 'http://localhost:5173/'],
};

const clientFields = [
  'client_id',
  'redirect_uris',
  'post_logout_redirect_uris',
  'client_name',
  'access_tokens_for',
  'dpop_bound_access_tokens',
];
const example = '{"client_id": "my-app", "redirect_uris": ["http://localhost:3000/callback"]}';

/**
 * Checks a list of extra clients (parsed JSON or the `clients` option). Throws a
 * `DevProviderConfigError` naming the source, the entry and the field.
 */
export function parseClients(value: unknown, list: ListSource): DevClient[] {
  const clients: DevClient[] = [];
  for (const { check } of eachEntry(value, list, 'client_id', example)) {
    check.onlyFields(clientFields);
    const clientId = check.requiredString('client_id', '"my-app"');
    // oidc-provider validates clients on first use: it would start, then refuse every sign-in.
    if (!/^[\x20-\x7E]+$/.test(clientId)) {
      check.fail(
        'client_id',
        `must use printable ASCII characters only (got ${JSON.stringify(clientId)}).`,
      );
    }
    if (clientId === referenceAppClient.client_id) {
      check.fail(
        'client_id',
        `"${clientId}" is the built-in reference app client; choose another client_id.`,
      );
    }
    if (clients.some((other) => other.client_id === clientId)) {
      check.fail('client_id', `"${clientId}" is already used by another entry; choose another.`);
    }
    const redirectUris = uris(check, 'redirect_uris', true) ?? [];
    const postLogout = uris(check, 'post_logout_redirect_uris', false);
    const clientName = check.string('client_name', '"My app"');
    const accessTokensFor = check.string('access_tokens_for', '"api"');
    if (
      accessTokensFor !== undefined &&
      accessTokensFor !== 'api' &&
      accessTokensFor !== 'userinfo'
    ) {
      check.fail('access_tokens_for', `must be "api" or "userinfo".`);
    }
    const requireDPoP = check.boolean('dpop_bound_access_tokens');
    clients.push({
      client_id: clientId,
      redirect_uris: redirectUris,
      ...(postLogout === undefined ? {} : { post_logout_redirect_uris: postLogout }),
      ...(clientName === undefined ? {} : { client_name: clientName }),
      ...(accessTokensFor === undefined
        ? {}
        : { access_tokens_for: accessTokensFor as 'api' | 'userinfo' }),
      ...(requireDPoP === undefined ? {} : { dpop_bound_access_tokens: requireDPoP }),
    });
  }
  return clients;
}

function uris(check: EntryChecker, field: string, required: boolean): string[] | undefined {
  const example = '["http://localhost:3000/callback"]';
  const values = check.stringArray(field, example, { nonEmpty: required });
  if (required && values === undefined) {
    check.fail(field, `is missing. Add it, e.g. "${field}": ${example}.`);
  }
  for (const value of values ?? []) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      check.fail(
        field,
        `"${value}" is not an absolute URL, e.g. "http://localhost:3000/callback".`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      check.fail(field, `"${value}" must use http: or https:.`);
    }
    if (value.includes('#')) check.fail(field, `"${value}" must not contain a fragment (#).`);
  }
  return values;
}

/** Reads and checks a clients file (a JSON array of {@link DevClient}). */
export async function loadClientsFile(path: string): Promise<DevClient[]> {
  const list = { kind: 'clients file', source: resolve(path) };
  return parseClients(await readJsonFile(list.source, list.kind), list);
}
