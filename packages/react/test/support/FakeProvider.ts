import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';

/** A user the fake provider signs in. */
export interface FakeUser {
  sub: string;
  name: string;
  email: string;
  roles: string[];
}

export const alice: FakeUser = {
  sub: 'alice',
  name: 'Alice Liddell',
  email: 'alice@example.com',
  roles: ['user'],
};

export interface FakeProviderOptions {
  issuer?: string;
  /** The issuer the discovery document announces (default: `issuer`). */
  discoveredIssuer?: string;
  /** Announce and send the RFC 9207 `iss` parameter. */
  issParameter?: boolean;
  accessTokenTtl?: number;
  /** Rewrites the claims of every ID token before it is signed. */
  idTokenClaims?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Issue a new ID token on refresh (default true). */
  idTokenOnRefresh?: boolean;
  /** Sign ID tokens with another key than the one in the JWKS. */
  signWithForeignKey?: boolean;
  /** Announce an end-session endpoint (default true). */
  endSession?: boolean;
  /** Milliseconds the token endpoint takes to answer. */
  tokenDelay?: number;
  /** Milliseconds refresh requests take to answer (default `tokenDelay`). */
  refreshDelay?: number;
  /** Answer refresh requests with this HTTP status and a server error. */
  refreshStatus?: number;
  /** Rotate refresh tokens (default true); false keeps the same one, as many providers do. */
  rotateRefreshTokens?: boolean;
  /** Process the next refresh request (rotating the token), then lose the answer on the way back. */
  loseNextRefreshResponse?: boolean;
  /** The `expires_in` of token responses (default `accessTokenTtl`); null leaves it out. */
  expiresIn?: number | null;
  /** Whether the browser has a session at the provider, for `prompt=none` (default true). */
  providerSession?: boolean;
  /** Answer every API call with 401, whatever the token. */
  apiAlwaysUnauthorized?: boolean;
  /** The provider cannot be reached (offline): every request to it fails as fetch does. */
  unreachable?: boolean;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string | null;
  user: FakeUser;
  used: boolean;
}

interface Grant {
  user: FakeUser;
  clientId: string;
  revoked: boolean;
}

interface RecordedRequest {
  method: string;
  url: string;
  endpoint: string;
  body: URLSearchParams | null;
  authorization: string | null;
}

// RSA key generation is slow; one pair of keys serves every fake provider in a test file.
let sharedKeys: Promise<{ privateKey: CryptoKey; jwk: JWK; foreign: CryptoKey }> | undefined;

function keys() {
  sharedKeys ??= (async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    const foreign = await generateKeyPair('RS256');
    return {
      privateKey: pair.privateKey,
      jwk: { ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' },
      foreign: foreign.privateKey,
    };
  })();
  return sharedKeys;
}

function random(): string {
  return randomBytes(16).toString('base64url');
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * An in-memory OpenID Provider answering oidc-client-ts's fetches: discovery, JWKS, the token
 * endpoint (code + PKCE S256, rotating refresh tokens with reuse detection), revocation, and an
 * API that accepts only live access tokens. It records every request so tests can count them.
 * The authorization endpoint is a navigation, so tests call `authorize(url)` in its place.
 */
export class FakeProvider {
  readonly issuer: string;
  readonly apiOrigin = 'https://api.example.test';
  readonly requests: RecordedRequest[] = [];
  /** Refresh tokens presented after they had been used: each one ended its grant. */
  readonly reusedRefreshTokens: string[] = [];
  options: FakeProviderOptions;

  private readonly codes = new Map<string, PendingCode>();
  private readonly refreshTokens = new Map<string, { grant: Grant; used: boolean }>();
  private readonly accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  private keys: Promise<{ privateKey: CryptoKey; jwk: JWK; foreign: CryptoKey }>;

  constructor(options: FakeProviderOptions = {}) {
    this.options = options;
    this.issuer = options.issuer ?? 'https://id.example.test';
    this.keys = keys();
  }

  /** Requests to one endpoint (`discovery`, `jwks`, `token`, `refresh`, `revoke`, `api`). */
  count(endpoint: string): number {
    return this.requests.filter((request) => request.endpoint === endpoint).length;
  }

  /** How often `refreshToken` was presented at the token endpoint. */
  presentations(refreshToken: string): number {
    return this.requests.filter(
      (request) =>
        request.endpoint === 'refresh' && request.body?.get('refresh_token') === refreshToken,
    ).length;
  }

  /** Requests to the provider itself (the API excluded). */
  providerRequests(): number {
    return this.requests.filter((request) => request.endpoint !== 'api').length;
  }

  /** Ends every grant at the provider, as an administrator or an idle timeout would. */
  revokeAllGrants(): void {
    for (const entry of this.refreshTokens.values()) entry.grant.revoked = true;
  }

  /** Expires every access token now, as time passing would. */
  expireAccessTokens(): void {
    for (const entry of this.accessTokens.values()) entry.expiresAt = 0;
  }

  /** Acts as the authorization endpoint: returns the callback URL the browser would be sent to. */
  authorize(authorizeUrl: string, user: FakeUser = alice, error?: string): string {
    const url = new URL(authorizeUrl);
    if (`${url.origin}${url.pathname}` !== `${this.issuer}/authorize`) {
      throw new Error(`not this provider's authorization endpoint: ${authorizeUrl}`);
    }
    const params = url.searchParams;
    const redirectUri = params.get('redirect_uri') ?? '';
    const callback = new URL(redirectUri);
    const state = params.get('state');
    if (state !== null) callback.searchParams.set('state', state);
    if (this.options.issParameter === true) callback.searchParams.set('iss', this.issuer);
    if (
      error === undefined &&
      params.get('prompt') === 'none' &&
      this.options.providerSession === false
    ) {
      error = 'login_required';
    }
    if (error !== undefined) {
      callback.searchParams.set('error', error);
      callback.searchParams.set('error_description', 'The user cancelled the sign-in.');
      return callback.toString();
    }
    if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) {
      throw new Error('PKCE S256 is required');
    }
    const code = random();
    this.codes.set(code, {
      clientId: params.get('client_id') ?? '',
      redirectUri,
      challenge: params.get('code_challenge') ?? '',
      nonce: params.get('nonce'),
      user,
      used: false,
    });
    callback.searchParams.set('code', code);
    return callback.toString();
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);

    const body = request.method === 'POST' ? new URLSearchParams(await request.text()) : null;
    const path = url.pathname;
    const endpoint =
      url.origin === this.apiOrigin
        ? 'api'
        : path === '/.well-known/openid-configuration'
          ? 'discovery'
          : path === '/jwks'
            ? 'jwks'
            : path === '/token'
              ? body?.get('grant_type') === 'refresh_token'
                ? 'refresh'
                : 'token'
              : path === '/revoke'
                ? 'revoke'
                : 'unknown';
    this.requests.push({
      method: request.method,
      url: request.url,
      endpoint,
      body,
      authorization: request.headers.get('Authorization'),
    });
    if (this.options.unreachable === true && url.origin === this.issuer) {
      throw new TypeError('Failed to fetch');
    }
    switch (endpoint) {
      case 'discovery':
        return json(this.discovery());
      case 'jwks':
        return json({ keys: [(await this.keys).jwk] });
      case 'token':
        return this.delayed(request.signal, () => this.exchangeCode(body ?? new URLSearchParams()));
      case 'refresh': {
        const answer = await this.delayed(
          request.signal,
          () => this.refresh(body ?? new URLSearchParams()),
          this.options.refreshDelay ?? this.options.tokenDelay,
        );
        if (this.options.loseNextRefreshResponse === true) {
          // The provider did its work (the token rotated); the answer never reaches the browser.
          this.options.loseNextRefreshResponse = false;
          throw new TypeError('Failed to fetch');
        }
        return answer;
      }
      case 'revoke':
        this.revoke(body?.get('token') ?? '');
        return new Response(null, { status: 200 });
      case 'api':
        return this.api(request);
      default:
        // As web servers answer a path they do not know: a page, not JSON.
        return new Response('<!doctype html><title>Not Found</title>', {
          status: 404,
          statusText: 'Not Found',
          headers: { 'Content-Type': 'text/html' },
        });
    }
  };

  private discovery(): Record<string, unknown> {
    return {
      issuer: this.options.discoveredIssuer ?? this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      jwks_uri: `${this.issuer}/jwks`,
      revocation_endpoint: `${this.issuer}/revoke`,
      ...(this.options.endSession === false
        ? {}
        : { end_session_endpoint: `${this.issuer}/logout` }),
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: this.options.issParameter === true,
    };
  }

  private async delayed(
    signal: AbortSignal,
    answer: () => Promise<Response>,
    delay = this.options.tokenDelay,
  ): Promise<Response> {
    if (delay) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new DOMException('The operation was aborted.', 'AbortError'));
        });
      });
    }
    return answer();
  }

  private async exchangeCode(body: URLSearchParams): Promise<Response> {
    const pending = this.codes.get(body.get('code') ?? '');
    if (pending === undefined || pending.used) return json({ error: 'invalid_grant' }, 400);
    pending.used = true;
    const verifier = body.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (challenge !== pending.challenge || body.get('redirect_uri') !== pending.redirectUri) {
      return json(
        { error: 'invalid_grant', error_description: 'PKCE or redirect_uri mismatch' },
        400,
      );
    }
    const grant: Grant = { user: pending.user, clientId: pending.clientId, revoked: false };
    return json(await this.tokens(grant, pending.nonce));
  }

  private async refresh(body: URLSearchParams): Promise<Response> {
    if (this.options.refreshStatus !== undefined) {
      return json({ error: 'server_error' }, this.options.refreshStatus);
    }
    const entry = this.refreshTokens.get(body.get('refresh_token') ?? '');
    if (entry === undefined || entry.grant.revoked) return json({ error: 'invalid_grant' }, 400);
    if (entry.used) {
      this.reusedRefreshTokens.push(body.get('refresh_token') ?? '');
      // Reuse detection (RFC 9700 4.14.2): a rotated refresh token used twice ends the grant.
      entry.grant.revoked = true;
      return json({ error: 'invalid_grant', error_description: 'refresh token reused' }, 400);
    }
    if (this.options.rotateRefreshTokens === false) {
      const { refresh_token: _unchanged, ...tokens } = await this.tokens(
        entry.grant,
        null,
        this.options.idTokenOnRefresh !== false,
      );
      return json(tokens);
    }
    entry.used = true;
    return json(await this.tokens(entry.grant, null, this.options.idTokenOnRefresh !== false));
  }

  private revoke(token: string): void {
    const refresh = this.refreshTokens.get(token);
    if (refresh !== undefined) refresh.grant.revoked = true;
    this.accessTokens.delete(token);
  }

  private api(request: Request): Response {
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? '';
    const entry = this.accessTokens.get(token);
    if (
      this.options.apiAlwaysUnauthorized === true ||
      entry === undefined ||
      entry.grant.revoked ||
      entry.expiresAt <= Date.now()
    ) {
      return json({ error: 'invalid_token' }, 401, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    return json({ sub: entry.grant.user.sub });
  }

  private async tokens(grant: Grant, nonce: string | null, withIdToken = true) {
    const now = Math.floor(Date.now() / 1000);
    const ttl = this.options.accessTokenTtl ?? 3600;
    const accessToken = `at-${random()}`;
    const refreshToken = `rt-${random()}`;
    this.accessTokens.set(accessToken, { grant, expiresAt: Date.now() + ttl * 1000 });
    this.refreshTokens.set(refreshToken, { grant, used: false });
    const base: Record<string, unknown> = {
      iss: this.issuer,
      sub: grant.user.sub,
      aud: grant.clientId,
      iat: now,
      exp: now + 300,
      name: grant.user.name,
      email: grant.user.email,
      roles: grant.user.roles,
      ...(nonce === null ? {} : { nonce }),
    };
    const claims = this.options.idTokenClaims?.(base) ?? base;
    const keys = await this.keys;
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1', typ: 'JWT' })
      .sign(this.options.signWithForeignKey === true ? keys.foreign : keys.privateKey);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      ...(this.options.expiresIn === null ? {} : { expires_in: this.options.expiresIn ?? ttl }),
      refresh_token: refreshToken,
      scope: 'openid profile email',
      ...(withIdToken ? { id_token: idToken } : {}),
    };
  }
}
