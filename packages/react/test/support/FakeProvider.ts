import { createHash, randomBytes } from 'node:crypto';
import {
  EmbeddedJWK,
  SignJWT,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  jwtVerify,
} from 'jose';
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
  /** Rewrites the discovery document before it is sent. */
  discovery?: (document: Record<string, unknown>) => Record<string, unknown>;
  /** Announce and send the RFC 9207 `iss` parameter. */
  issParameter?: boolean;
  accessTokenTtl?: number;
  /** Rewrites the claims of every ID token before it is signed. */
  idTokenClaims?: (claims: Record<string, unknown>) => Record<string, unknown>;
  /** Rewrites every token response's fields (a code exchange's and a refresh's) before it is sent. */
  tokenResponse?: (fields: Record<string, unknown>) => Record<string, unknown>;
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
  /** Answer userinfo requests with this HTTP status and `temporarily_unavailable`. */
  userinfoStatus?: number;
  /**
   * Answers refresh requests with this response instead, once the request is read (an HTML error
   * page, a 429 with `Retry-After`…): the provider took the request, and rotated nothing.
   */
  refreshAnswer?: () => Response;
  /** Answer refresh requests with this HTTP status and `refreshError`. */
  refreshStatus?: number;
  /** The error of `refreshStatus` answers (default `temporarily_unavailable`). */
  refreshError?: string;
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
  /**
   * DPoP (RFC 9449): advertised in discovery; a token request with a proof gets tokens bound to
   * its key (`token_type` DPoP); a bound refresh token needs a proof by the same key, and the API
   * a proof for the request with a bound access token.
   */
  dpop?: boolean;
  /** The token endpoint asks for its nonce in proofs (`use_dpop_nonce` first). */
  dpopNonce?: boolean;
  /** The API asks for its nonce in proofs (401 `use_dpop_nonce` first). */
  apiDpopNonce?: boolean;
  /** Every refusal of the token endpoint carries a fresh `DPoP-Nonce`, as oidc-provider's do. */
  dpopNonceOnErrors?: boolean;
  /**
   * The token endpoint's nonce changes at each of its successful answers, which carries the new one
   * (RFC 9449 §8.2), as oidc-provider's does when its nonce rotates.
   */
  dpopNonceRotates?: boolean;
  /**
   * A query the discovery document's `token_endpoint` carries (`p=policy`, as some providers'
   * do); the endpoint answers there. A token request's proof names it without (RFC 9449 §4.2).
   */
  tokenEndpointQuery?: string;
}

/** A DPoP proof as the fake provider read it. */
export interface ReadProof {
  jkt: string;
  htm: string;
  htu: string;
  ath?: string;
  nonce?: string;
  jti: string;
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
  /** The thumbprint of the key the grant's tokens are bound to (DPoP), if any. */
  jkt?: string;
}

interface RecordedRequest {
  method: string;
  url: string;
  endpoint: string;
  body: URLSearchParams | null;
  authorization: string | null;
  /** The DPoP proof sent, as read (null when none, or when it did not verify). */
  proof: ReadProof | null;
  /** When it was received (`Date.now()`). */
  at: number;
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
  private readonly seenJtis = new Set<string>();
  /** The nonce the token endpoint and the API ask for, when they do. */
  readonly dpopNonces = { token: `tn-${random()}`, api: `an-${random()}` };
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

  /** When each token request (a code exchange or a refresh) was received, in order. */
  tokenRequestTimes(): number[] {
    return this.requests
      .filter((request) => request.endpoint === 'token' || request.endpoint === 'refresh')
      .map((request) => request.at);
  }

  /** Requests to the provider itself (the API excluded). */
  providerRequests(): number {
    return this.requests.filter((request) => request.endpoint !== 'api').length;
  }

  /** Ends every grant at the provider, as an administrator or an idle timeout would. */
  revokeAllGrants(): void {
    for (const entry of this.refreshTokens.values()) entry.grant.revoked = true;
  }

  /** Whether `accessToken` was issued here and its grant still stands (its expiry aside). */
  grantStands(accessToken: string): boolean {
    const entry = this.accessTokens.get(accessToken);
    return entry !== undefined && !entry.grant.revoked;
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
                : path === '/userinfo'
                  ? 'userinfo'
                  : 'unknown';
    const proof = await this.readProof(request);
    this.requests.push({
      method: request.method,
      url: request.url,
      endpoint,
      body,
      authorization: request.headers.get('Authorization'),
      proof,
      at: Date.now(),
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
        return (
          this.dpopRefusal(request, proof) ??
          this.withNonce(
            await this.delayed(request.signal, () =>
              this.exchangeCode(body ?? new URLSearchParams(), proof),
            ),
          )
        );
      case 'refresh': {
        const refused = this.dpopRefusal(request, proof);
        if (refused !== null) return refused;
        if (this.options.refreshAnswer !== undefined) return this.options.refreshAnswer();
        const answer = await this.delayed(
          request.signal,
          () => this.refresh(body ?? new URLSearchParams(), proof),
          this.options.refreshDelay ?? this.options.tokenDelay,
        );
        if (this.options.loseNextRefreshResponse === true) {
          // The provider did its work (the token rotated); the answer never reaches the browser.
          this.options.loseNextRefreshResponse = false;
          throw new TypeError('Failed to fetch');
        }
        return this.withNonce(answer);
      }
      case 'revoke':
        this.revoke(body?.get('token') ?? '');
        return new Response(null, { status: 200 });
      case 'api':
        return this.api(request, proof);
      case 'userinfo':
        return this.userinfo(request, proof);
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
    const document = {
      issuer: this.options.discoveredIssuer ?? this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token${this.options.tokenEndpointQuery === undefined ? '' : `?${this.options.tokenEndpointQuery}`}`,
      jwks_uri: `${this.issuer}/jwks`,
      revocation_endpoint: `${this.issuer}/revoke`,
      userinfo_endpoint: `${this.issuer}/userinfo`,
      ...(this.options.endSession === false
        ? {}
        : { end_session_endpoint: `${this.issuer}/logout` }),
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: this.options.issParameter === true,
      ...(this.options.dpop === true ? { dpop_signing_alg_values_supported: ['ES256'] } : {}),
    };
    return this.options.discovery?.(document) ?? document;
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

  /** A token endpoint's answer with the nonce of `dpopNonceOnErrors` or `dpopNonceRotates`. */
  private withNonce(answer: Response): Response {
    let nonce: string;
    if (answer.ok && this.options.dpopNonceRotates === true) {
      nonce = this.dpopNonces.token = `tn-${random()}`;
    } else if (!answer.ok && this.options.dpopNonceOnErrors === true) {
      nonce = `fresh-${random()}`;
    } else {
      return answer;
    }
    const headers = new Headers(answer.headers);
    headers.set('DPoP-Nonce', nonce);
    return new Response(answer.body, { status: answer.status, headers });
  }

  /** Reads a request's DPoP proof: its signature by the key it carries, and its claims. */
  private async readProof(request: Request): Promise<ReadProof | null> {
    const header = request.headers.get('DPoP');
    if (header === null) return null;
    try {
      const { payload, protectedHeader } = await jwtVerify(header, EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: ['ES256'],
      });
      const jti = String(payload.jti);
      // A proof is good for one request (RFC 9449 §11.1).
      if (this.seenJtis.has(jti)) return null;
      this.seenJtis.add(jti);
      return {
        jkt: await calculateJwkThumbprint(protectedHeader.jwk as JWK),
        htm: String(payload.htm),
        htu: String(payload.htu),
        jti,
        ...(typeof payload.ath === 'string' ? { ath: payload.ath } : {}),
        ...(typeof payload.nonce === 'string' ? { nonce: payload.nonce } : {}),
      };
    } catch {
      return null;
    }
  }

  /** The token endpoint's answer to a DPoP proof it cannot take, or null. */
  private dpopRefusal(request: Request, proof: ReadProof | null): Response | null {
    if (this.options.dpop !== true || request.headers.get('DPoP') === null) return null;
    if (proof === null || proof.htm !== 'POST' || proof.htu !== `${this.issuer}/token`) {
      return json({ error: 'invalid_dpop_proof' }, 400);
    }
    if (this.options.dpopNonce === true && proof.nonce !== this.dpopNonces.token) {
      return json({ error: 'use_dpop_nonce' }, 400, { 'DPoP-Nonce': this.dpopNonces.token });
    }
    return null;
  }

  private async exchangeCode(body: URLSearchParams, proof: ReadProof | null): Promise<Response> {
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
    const grant: Grant = {
      user: pending.user,
      clientId: pending.clientId,
      revoked: false,
      ...(this.options.dpop === true && proof !== null ? { jkt: proof.jkt } : {}),
    };
    return json(await this.tokens(grant, pending.nonce));
  }

  private async refresh(body: URLSearchParams, proof: ReadProof | null): Promise<Response> {
    if (this.options.refreshStatus !== undefined) {
      const error = this.options.refreshError ?? 'temporarily_unavailable';
      return json({ error }, this.options.refreshStatus);
    }
    const entry = this.refreshTokens.get(body.get('refresh_token') ?? '');
    if (entry === undefined || entry.grant.revoked) return json({ error: 'invalid_grant' }, 400);
    if (entry.grant.jkt !== undefined && proof?.jkt !== entry.grant.jkt) {
      // A refresh token bound to a key is good only with a proof by that key (RFC 9449 §5).
      return json({ error: 'invalid_grant', error_description: 'DPoP key mismatch' }, 400);
    }
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

  private userinfo(request: Request, proof: ReadProof | null): Response {
    if (this.options.userinfoStatus !== undefined) {
      return json({ error: 'temporarily_unavailable' }, this.options.userinfoStatus);
    }
    const [scheme = '', token = ''] = (request.headers.get('Authorization') ?? '').split(' ');
    const entry = this.accessTokens.get(token);
    if (entry === undefined || entry.grant.revoked) return json({ error: 'invalid_token' }, 401);
    // A protected resource like any other (RFC 9449 §7.1), as oidc-provider's userinfo is.
    const refused = this.bindingRefusal(request, proof, scheme, token, entry.grant);
    if (refused !== null) return refused;
    const { sub, name, email } = entry.grant.user;
    return json({ sub, name, email });
  }

  private api(request: Request, proof: ReadProof | null): Response {
    const [scheme = '', token = ''] = (request.headers.get('Authorization') ?? '').split(' ');
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
    return (
      this.bindingRefusal(request, proof, scheme, token, entry.grant, this.options.apiDpopNonce) ??
      json({ sub: entry.grant.user.sub })
    );
  }

  /**
   * A resource's refusal of a live `token` sent with `scheme`, or null when it may be used: a bound
   * token needs the DPoP scheme and a proof of this request by its key (with the nonce when
   * `askNonce`), any other the Bearer scheme.
   */
  private bindingRefusal(
    request: Request,
    proof: ReadProof | null,
    scheme: string,
    token: string,
    grant: Grant,
    askNonce = false,
  ): Response | null {
    const jkt = grant.jkt;
    if (jkt !== undefined) {
      const url = new URL(request.url);
      const ath = createHash('sha256').update(token).digest('base64url');
      const refuse = (error: string, headers: Record<string, string> = {}) =>
        json({ error }, 401, { 'WWW-Authenticate': `DPoP error="${error}"`, ...headers });
      if (
        scheme !== 'DPoP' ||
        proof === null ||
        proof.jkt !== jkt ||
        proof.htm !== request.method ||
        proof.htu !== url.origin + url.pathname ||
        proof.ath !== ath
      ) {
        return refuse(scheme === 'DPoP' ? 'invalid_dpop_proof' : 'invalid_token');
      }
      if (askNonce && proof.nonce !== this.dpopNonces.api) {
        return refuse('use_dpop_nonce', { 'DPoP-Nonce': this.dpopNonces.api });
      }
    } else if (scheme !== 'Bearer') {
      return json({ error: 'invalid_token' }, 401, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    return null;
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
    const fields: Record<string, unknown> = {
      access_token: accessToken,
      token_type: grant.jkt === undefined ? 'Bearer' : 'DPoP',
      ...(this.options.expiresIn === null ? {} : { expires_in: this.options.expiresIn ?? ttl }),
      refresh_token: refreshToken,
      scope: 'openid profile email',
      ...(withIdToken ? { id_token: idToken } : {}),
    };
    return this.options.tokenResponse?.(fields) ?? fields;
  }
}
