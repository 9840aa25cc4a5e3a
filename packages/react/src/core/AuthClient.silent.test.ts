import { createHash } from 'node:crypto';
import { afterEach, expect, test, vi } from 'vitest';
import { appOrigin, createHarness, newStorage } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';

let harness: Harness;
afterEach(() => harness?.dispose());

/** The sign-in request oidc-client-ts stored for the silent iframe, read back as its authorize URL. */
function pendingAuthorizeUrl(issuer: string, redirectUri: string): string {
  for (let index = 0; index < localStorage.length; index += 1) {
    const raw = localStorage.getItem(localStorage.key(index) as string) ?? '';
    if (!raw.includes('"request_type":"si:s"')) continue;
    const state = JSON.parse(raw) as { id: string; nonce: string; code_verifier: string };
    const challenge = createHash('sha256').update(state.code_verifier).digest('base64url');
    const url = new URL(`${issuer}/authorize`);
    url.search = new URLSearchParams({
      client_id: 'app',
      redirect_uri: redirectUri,
      response_type: 'code',
      state: state.id,
      nonce: state.nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      prompt: 'none',
    }).toString();
    return url.toString();
  }
  throw new Error('no silent sign-in request stored yet');
}

test('without a refresh token, renewal signs in silently in a hidden iframe (prompt=none)', async () => {
  harness = createHarness();
  const silent = `${appOrigin}/silent-callback`;
  // A user whose session has no refresh token (the provider issued none).
  const storage = newStorage();
  const landed = await harness.signIn(
    harness.createClient({ config: { silent_redirect_uri: silent } }),
    { storage },
  );
  landed.client.dispose();
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index) as string;
    const user = JSON.parse(storage.getItem(key) as string) as Record<string, unknown>;
    delete user.refresh_token;
    storage.setItem(key, JSON.stringify(user));
  }
  // The real hidden iframe, not the harness's stand-in for it.
  const tab = harness.createClient({
    storage,
    config: { silent_redirect_uri: silent },
    environment: { silentFrame: undefined },
  });
  await tab.start();
  const before = tab.getSnapshot().user?.access_token;
  expect(tab.getSnapshot().user?.refresh_token).toBeUndefined();

  await passTokenFloor();
  const renewing = tab.renew();
  // Generous: on a loaded two-core machine the request may take seconds to be stored.
  const authorize = await vi.waitFor(() => pendingAuthorizeUrl(harness.provider.issuer, silent), {
    timeout: 15_000,
    interval: 20,
  });
  expect(document.querySelector('iframe')).not.toBeNull();
  // What the silent callback page in the iframe posts to its parent.
  const callback = harness.provider.authorize(authorize);
  window.dispatchEvent(
    new MessageEvent('message', {
      origin: location.origin,
      data: { source: 'oidc-client', url: callback, keepOpen: false },
    }),
  );
  const renewed = await renewing;
  expect(renewed?.access_token).toBeDefined();
  expect(renewed?.access_token).not.toBe(before);
  expect(tab.getSnapshot().status).toBe('authenticated');
  expect(harness.provider.count('refresh')).toBe(0);
  expect(harness.provider.count('token')).toBe(2);
});
