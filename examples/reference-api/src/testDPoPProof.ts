// Test helpers for verifyDPoPProof's suites (verifyDPoPProof*.test.ts), never imported by the server.
import { expect } from 'vitest';
import { MemoryReplayCache } from './replayCache';
import { DPoPProofError, verifyDPoPProof } from './verifyDPoPProof';

/** The request URL the proofs are checked against. */
export const url = 'http://localhost:4001/me';
/** The access token the proofs are checked against (its `ath`). */
export const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2ln';

/**
 * A suite's `check(proof, overrides)`: {@link verifyDPoPProof} for a GET of {@link url} with
 * {@link token} bound to `jkt()` (read at each call, once the suite's key is made) and a fresh
 * replay cache; `overrides` replaces any of them.
 */
export function proofChecker(jkt: () => string) {
  return (proof: string, overrides: Partial<Parameters<typeof verifyDPoPProof>[1]> = {}) =>
    verifyDPoPProof(proof, {
      method: 'GET',
      url: new URL(url),
      accessToken: token,
      jkt: jkt(),
      replayCache: new MemoryReplayCache(),
      ...overrides,
    });
}

/** The message of the {@link DPoPProofError} `promise` rejects with; fails the test otherwise. */
export async function refusal(promise: Promise<void>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DPoPProofError);
  return (error as Error).message;
}
