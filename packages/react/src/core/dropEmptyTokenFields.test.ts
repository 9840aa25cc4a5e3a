import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness, newStorage } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { later, runFor } from '../../test/support/clock';

// Providers whose serialisers write every field of a token response give a field they leave out as
// `null` (or `""`): that is a field not given (RFC 6749 §5.1), not a value of it.

let harness: Harness;
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
});

async function signedIn() {
  const { client } = await harness.signIn(harness.createClient(), { storage: newStorage() });
  return client;
}

// A missing field first: what the others must be read as.
const empties = [
  ['missing', undefined],
  ['null', null],
  ['""', ''],
] as const;

describe('a token response field missing, null or "": not given, whichever way', () => {
  test.each(empties)(
    'expires_in %s is an unknown expiry: no renewal every 10 s',
    async (_, empty) => {
      vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
      harness = createHarness({ tokenResponse: (fields) => ({ ...fields, expires_in: empty }) });
      const client = await signedIn();
      const token = client.getSnapshot().user?.access_token;
      await runFor(45);
      expect(harness.provider.count('refresh')).toBe(0);
      expect(client.getSnapshot().status).toBe('authenticated');
      expect(await client.getAccessToken()).toBe(token);
    },
  );

  test.each(empties)(
    'refresh_token %s from the code exchange is none: renewal authorizes silently, with no error',
    async (_, empty) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      harness = createHarness({ tokenResponse: (fields) => ({ ...fields, refresh_token: empty }) });
      const client = await signedIn();
      const before = client.getSnapshot().user?.access_token;
      later();
      const renewed = await client.renew();
      expect(harness.provider.count('refresh')).toBe(0);
      expect(harness.silentAuthorizations).toHaveLength(1);
      expect(renewed?.access_token).not.toBe(before);
      expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    },
  );

  // RFC 6749 §6: a provider that issues no new refresh token leaves the one sent in use.
  test.each(empties)(
    'refresh_token %s in a refresh answer keeps the token sent',
    async (_, empty) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      harness = createHarness({ rotateRefreshTokens: false });
      const client = await signedIn();
      const token = client.getSnapshot().user?.refresh_token as string;
      // The provider's refresh answers write the refresh token it leaves out.
      const answer = harness.provider.fetch;
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await answer(input, init);
        if (!String(init?.body ?? '').includes('grant_type=refresh_token')) return response;
        const fields = { ...(await response.json()), refresh_token: empty };
        return new Response(JSON.stringify(fields), { headers: response.headers });
      });
      later();
      await client.renew();
      expect(client.getSnapshot().user?.refresh_token).toBe(token);
      later();
      await client.renew();
      expect(harness.provider.presentations(token)).toBe(2);
      expect(harness.silentAuthorizations).toEqual([]);
      expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    },
  );
});
