import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { attribute, Browser, type Visit } from './Browser.js';

/** Token endpoint response fields the tests read. */
export interface TokenResponse {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

/** A PKCE verifier and its S256 challenge, computed here rather than by a library. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An authorization request of a public client, with PKCE, state and nonce. */
export function authorizationUrl(
  issuer: string,
  {
    clientId = 'reference-app',
    redirectUri = 'http://localhost:5173/callback',
    scope = 'openid profile email',
    challenge,
    state = randomBytes(8).toString('hex'),
    nonce = randomBytes(8).toString('hex'),
    extra = {},
  }: {
    clientId?: string;
    redirectUri?: string;
    scope?: string;
    challenge?: string;
    state?: string;
    nonce?: string;
    extra?: Record<string, string>;
  },
): URL {
  const url = new URL('/auth', issuer);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    state,
    nonce,
    ...(challenge === undefined
      ? {}
      : { code_challenge: challenge, code_challenge_method: 'S256' }),
    ...extra,
  }).toString();
  return url;
}

/** Fills in and posts the login form shown in `page`. */
export function submitLogin(
  browser: Browser,
  page: Visit,
  username: string,
  password: string,
): Promise<Visit> {
  const action = attribute(page.body, /<form\b[^>]*>/, 'action');
  return browser.submit(action, page.url, { username, password });
}

/** Presses the login page's Cancel button (its `formaction`). */
export function pressCancel(browser: Browser, page: Visit): Promise<Visit> {
  const action = attribute(page.body, /<button\b[^>]*formaction=[^>]*>/, 'formaction');
  return browser.submit(action, page.url, { username: '', password: '' });
}

/**
 * Signs `username` in through the login page and returns the authorization code, the verifier
 * and the browser (with its session cookie).
 */
export async function signIn(
  issuer: string,
  {
    username,
    password = username,
    clientId = 'reference-app',
    redirectUri = 'http://localhost:5173/callback',
    scope,
    browser = new Browser(issuer),
    extra,
  }: {
    username: string;
    password?: string;
    clientId?: string;
    redirectUri?: string;
    scope?: string;
    browser?: Browser;
    extra?: Record<string, string>;
  },
): Promise<{ code: string; verifier: string; nonce: string; state: string; browser: Browser }> {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const nonce = randomBytes(8).toString('hex');
  const url = authorizationUrl(issuer, {
    clientId,
    redirectUri,
    challenge,
    state,
    nonce,
    ...(scope === undefined ? {} : { scope }),
    ...(extra === undefined ? {} : { extra }),
  });
  let visit = await browser.open(url);
  if (visit.redirectedTo === undefined) {
    expect(visit.response.status).toBe(200);
    visit = await submitLogin(browser, visit, username, password);
  }
  const callback = visit.redirectedTo;
  expect(callback, `no redirect to the client; page:\n${visit.body}`).toBeDefined();
  expect(`${callback!.origin}${callback!.pathname}`).toBe(redirectUri);
  expect(callback!.searchParams.get('state')).toBe(state);
  expect(callback!.searchParams.get('iss')).toBe(issuer);
  const code = callback!.searchParams.get('code');
  expect(code, `no code in ${callback!.href}`).toBeTruthy();
  return { code: code!, verifier, nonce, state, browser };
}

/** POSTs a form to the token (or revocation) endpoint as a public client. */
export async function postForm(
  url: string,
  fields: Record<string, string>,
  origin?: string,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin === undefined ? {} : { origin }),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Exchanges a code at the token endpoint, expecting success. */
export async function exchangeCode(
  issuer: string,
  {
    code,
    verifier,
    clientId = 'reference-app',
    redirectUri = 'http://localhost:5173/callback',
    extra = {},
  }: {
    code: string;
    verifier: string;
    clientId?: string;
    redirectUri?: string;
    extra?: Record<string, string>;
  },
): Promise<TokenResponse> {
  const response = await postForm(`${issuer}/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: redirectUri,
    ...extra,
  });
  const body = (await response.json()) as TokenResponse;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** Uses a refresh token; returns the status and the JSON body. */
export async function refresh(
  issuer: string,
  refreshToken: string,
  clientId = 'reference-app',
): Promise<{ status: number; body: TokenResponse & { error?: string } }> {
  const response = await postForm(`${issuer}/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
  return { status: response.status, body: (await response.json()) as TokenResponse };
}
