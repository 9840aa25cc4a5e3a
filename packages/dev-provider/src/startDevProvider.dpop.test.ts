import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevProvider, type DevProvider } from './startDevProvider.js';
import { createDPoPKey, dpopProof, postToken, type DPoPKey } from './test-support/dpop.js';
import { signIn } from './test-support/oidcFlow.js';

const callback = 'http://localhost:5173/callback';
const strictCallback = 'http://localhost:3001/callback';

let provider: DevProvider;
let strict: DevProvider;
let key: DPoPKey;
let other: DPoPKey;

beforeAll(async () => {
  [provider, strict, key, other] = await Promise.all([
    startDevProvider({
      port: 0,
      quiet: true,
      clients: [
        {
          client_id: 'dpop-required',
          redirect_uris: [strictCallback],
          dpop_bound_access_tokens: true,
        },
      ],
    }),
    startDevProvider({ port: 0, quiet: true, dpopNonce: true }),
    createDPoPKey(),
    createDPoPKey(),
  ]);
});

afterAll(async () => {
  await Promise.all([provider?.stop(), strict?.stop()]);
});

function codeGrant(
  code: string,
  verifier: string,
  clientId = 'reference-app',
  redirectUri = callback,
) {
  return {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: redirectUri,
  };
}

/** Alice signs in at `provider`, and the code is exchanged with a proof of `key`. */
async function boundSignIn(): Promise<Response> {
  const { code, verifier } = await signIn(provider.issuer, { username: 'alice' });
  const proof = await dpopProof(key, `${provider.issuer}/token`);
  return postToken(provider.issuer, codeGrant(code, verifier), proof);
}

function refreshGrant(refreshToken: string) {
  return { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'reference-app' };
}

describe('DPoP (RFC 9449)', () => {
  it('advertises its proof algorithms in discovery', async () => {
    const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery.dpop_signing_alg_values_supported).toContain('ES256');
  });

  it('binds the tokens of a code exchange with a proof to its key; the refresh needs that key', async () => {
    const token = `${provider.issuer}/token`;
    const response = await boundSignIn();
    const tokens = (await response.json()) as Record<string, string>;
    expect(response.status, JSON.stringify(tokens)).toBe(200);
    expect(tokens.token_type).toBe('DPoP');
    expect(decodeJwt(tokens.access_token as string).cnf).toEqual({ jkt: key.jkt });

    const grant = refreshGrant(tokens.refresh_token as string);
    expect((await postToken(provider.issuer, grant)).status).toBe(400);
    expect((await postToken(provider.issuer, grant, await dpopProof(other, token))).status).toBe(
      400,
    );
    const renewed = await postToken(provider.issuer, grant, await dpopProof(key, token));
    const body = (await renewed.json()) as Record<string, string>;
    expect(renewed.status, JSON.stringify(body)).toBe(200);
    expect(decodeJwt(body.access_token as string).cnf).toEqual({ jkt: key.jkt });
  });

  it('binds the code to the key an authorization request names in dpop_jkt (RFC 9449 §10)', async () => {
    const token = `${provider.issuer}/token`;
    const bound = { extra: { dpop_jkt: key.jkt } };
    const stolen = await signIn(provider.issuer, { username: 'alice', ...bound });
    const refused = await postToken(
      provider.issuer,
      codeGrant(stolen.code, stolen.verifier),
      await dpopProof(other, token),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');

    const own = await signIn(provider.issuer, { username: 'alice', ...bound });
    const accepted = await postToken(
      provider.issuer,
      codeGrant(own.code, own.verifier),
      await dpopProof(key, token),
    );
    const tokens = (await accepted.json()) as Record<string, string>;
    expect(accepted.status, JSON.stringify(tokens)).toBe(200);
    expect(decodeJwt(tokens.access_token as string).cnf).toEqual({ jkt: key.jkt });
  });

  it('rotates a DPoP-bound refresh token too: a used one, even with the right proof, revokes the grant', async () => {
    const token = `${provider.issuer}/token`;
    const issued = await boundSignIn();
    const first = ((await issued.json()) as Record<string, string>).refresh_token as string;
    const renewed = await postToken(
      provider.issuer,
      refreshGrant(first),
      await dpopProof(key, token),
    );
    const second = ((await renewed.json()) as Record<string, string>).refresh_token as string;
    expect(renewed.status).toBe(200);
    expect(second).not.toBe(first);
    const reused = await postToken(
      provider.issuer,
      refreshGrant(first),
      await dpopProof(key, token),
    );
    expect(reused.status).toBe(400);
    // The reuse ended the grant: the token the rotation handed out is refused as well.
    const after = await postToken(
      provider.issuer,
      refreshGrant(second),
      await dpopProof(key, token),
    );
    expect(after.status).toBe(400);
  });

  it('gives bearer tokens to a client that sends no proof, unless the client requires DPoP', async () => {
    const plain = await signIn(provider.issuer, { username: 'alice' });
    const response = await postToken(provider.issuer, codeGrant(plain.code, plain.verifier));
    const tokens = (await response.json()) as Record<string, string>;
    expect(tokens.token_type).toBe('Bearer');
    expect(decodeJwt(tokens.access_token as string).cnf).toBeUndefined();

    const required = await signIn(provider.issuer, {
      username: 'alice',
      clientId: 'dpop-required',
      redirectUri: strictCallback,
    });
    const refused = await postToken(
      provider.issuer,
      codeGrant(required.code, required.verifier, 'dpop-required', strictCallback),
    );
    expect(refused.status).toBe(400);
    // oidc-provider says no more than invalid_grant; the same code with a proof goes through.
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
    const accepted = await postToken(
      provider.issuer,
      codeGrant(required.code, required.verifier, 'dpop-required', strictCallback),
      await dpopProof(key, `${provider.issuer}/token`),
    );
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { token_type: string }).token_type).toBe('DPoP');
  });

  it('with dpopNonce, asks for its nonce first (use_dpop_nonce and DPoP-Nonce), then accepts the proof', async () => {
    const { code, verifier } = await signIn(strict.issuer, { username: 'bob' });
    const token = `${strict.issuer}/token`;
    const first = await postToken(
      strict.issuer,
      codeGrant(code, verifier),
      await dpopProof(key, token),
    );
    expect(first.status).toBe(400);
    expect(((await first.json()) as { error: string }).error).toBe('use_dpop_nonce');
    const nonce = first.headers.get('dpop-nonce');
    expect(nonce).toBeTruthy();
    const second = await postToken(
      strict.issuer,
      codeGrant(code, verifier),
      await dpopProof(key, token, nonce!),
    );
    const tokens = (await second.json()) as Record<string, string>;
    expect(second.status, JSON.stringify(tokens)).toBe(200);
    expect(decodeJwt(tokens.access_token as string).cnf).toEqual({ jkt: key.jkt });
  });

  it('asks a client whose clock is 10 minutes ahead for its nonce (use_dpop_nonce), then accepts the proof with it', async () => {
    const { code, verifier } = await signIn(provider.issuer, { username: 'alice' });
    const token = `${provider.issuer}/token`;
    const skewed = Math.floor(Date.now() / 1000) + 600;
    const first = await postToken(
      provider.issuer,
      codeGrant(code, verifier),
      await dpopProof(key, token, undefined, skewed),
    );
    const refusal = (await first.json()) as { error: string };
    expect(first.status, JSON.stringify(refusal)).toBe(400);
    expect(refusal.error).toBe('use_dpop_nonce');
    const nonce = first.headers.get('dpop-nonce');
    expect(nonce).toBeTruthy();
    const second = await postToken(
      provider.issuer,
      codeGrant(code, verifier),
      await dpopProof(key, token, nonce!, skewed),
    );
    const tokens = (await second.json()) as Record<string, string>;
    expect(second.status, JSON.stringify(tokens)).toBe(200);
    expect(decodeJwt(tokens.access_token as string).cnf).toEqual({ jkt: key.jkt });
  });

  it('lets a browser app send proofs and read the nonce (CORS)', async () => {
    const preflight = await fetch(`${provider.issuer}/token`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,dpop',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('dpop');
    const { code, verifier } = await signIn(strict.issuer, { username: 'bob' });
    const answer = await fetch(`${strict.issuer}/token`, {
      method: 'POST',
      headers: {
        Origin: 'http://localhost:5173',
        'content-type': 'application/x-www-form-urlencoded',
        dpop: await dpopProof(key, `${strict.issuer}/token`),
      },
      body: new URLSearchParams(codeGrant(code, verifier)).toString(),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('access-control-expose-headers')?.toLowerCase()).toContain(
      'dpop-nonce',
    );
  });
});
