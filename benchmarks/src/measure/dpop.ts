// The cost of DPoP per API request: the same in-memory API called with a plain Bearer token and
// with a DPoP-bound one (a new proof each time: ES256 signature, SHA-256 of the token, the key
// read from IndexedDB), in one run; and the proof alone (`getAuthHeaders`).
import { IDBFactory } from 'fake-indexeddb';
import { Bench } from 'tinybench';
import type { AuthClient } from '@oidc-kit/react';
import { FakeProvider, oidcKitTabs } from '../support/fake';
import { job } from '../support/job';
import { dpopTime } from '../support/settings';

export interface DPoPResults {
  /** Median milliseconds, and how many times each ran. */
  scenarios: Record<string, { medianMs: number; samples: number }>;
}

async function signedIn(provider: FakeProvider, dpop: boolean): Promise<AuthClient> {
  const client = await oidcKitTabs(provider, { dpop }).signIn();
  const type = client.getSnapshot().user?.token_type;
  if (type !== (dpop ? 'DPoP' : 'Bearer')) throw new Error(`unexpected token type ${type}`);
  return client;
}

// The origin's IndexedDB, in memory (jsdom has none); and WebCrypto where oidc-client-ts looks for
// it (`window.crypto.subtle`, which jsdom's window lacks): Node's, as the page's other globals are.
globalThis.indexedDB = new IDBFactory();
Object.defineProperty(window, 'crypto', { value: globalThis.crypto, configurable: true });

await job('dpop', async (): Promise<DPoPResults> => {
  // One provider that takes DPoP: the plain client sends no proof and gets Bearer tokens.
  const provider = new FakeProvider({ dpop: true });
  globalThis.fetch = provider.fetch;
  const plain = await signedIn(provider, false);
  const bound = await signedIn(provider, true);
  const url = `${provider.apiOrigin}/orders`;
  const ok = async (client: AuthClient) => {
    const response = await client.fetch(url);
    if (!response.ok) throw new Error(`the API answered ${response.status}`);
  };
  const headers = async (client: AuthClient) => {
    if ((await client.getAuthHeaders(url)) === null) throw new Error('no headers');
  };
  const bench = new Bench({ time: dpopTime, warmup: true, throws: true });
  bench
    .add('API request, Bearer', () => ok(plain))
    .add('API request, DPoP (a new proof each)', () => ok(bound))
    .add('headers only, Bearer', () => headers(plain))
    .add('headers only, DPoP (the proof)', () => headers(bound));
  await bench.run();
  const scenarios: DPoPResults['scenarios'] = {};
  for (const task of bench.tasks) {
    const result = task.result;
    if (!('latency' in result)) throw new Error(`${task.name} did not run`);
    scenarios[task.name] = {
      medianMs: result.latency.p50 ?? Number.NaN,
      samples: result.latency.samplesCount,
    };
  }
  return { scenarios };
});
