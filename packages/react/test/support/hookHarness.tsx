import { vi } from 'vitest';
import { AuthProvider } from '../../src/AuthProvider';
import type { AuthClient } from '../../src/core/AuthClient';
import type { AuthOptions } from '../../src/core/configTypes';
import { createHarness } from './harness';
import type { Harness } from './harness';
import type { FakeProviderOptions } from './FakeProvider';

/** A fake provider and a client for the hook tests; `dispose()` after each test. */
export function createHookHarness() {
  let harness: Harness | undefined;
  return {
    get harness(): Harness {
      if (harness === undefined) throw new Error('no client yet: call signedInClient() first');
      return harness;
    },
    /** A client signed in as alice at a fresh fake provider, with `config` over the harness's. */
    async signedInClient(
      options: FakeProviderOptions = {},
      config?: AuthOptions & Record<string, unknown>,
    ): Promise<AuthClient> {
      harness = createHarness(options);
      const { client } = await harness.signIn(harness.createClient({ config }), { config });
      return client;
    },
    /** A started client with no session. */
    async signedOutClient(): Promise<AuthClient> {
      harness = createHarness();
      const client = harness.createClient();
      await client.start();
      return client;
    },
    dispose(): void {
      vi.useRealTimers();
      harness?.dispose();
    },
  };
}

/** `renderHook`'s wrapper: the hooks under an `AuthProvider` holding `client`. */
export function wrapperFor(client: AuthClient) {
  return ({ children }: { children: React.ReactNode }) => (
    <AuthProvider client={client}>{children}</AuthProvider>
  );
}
