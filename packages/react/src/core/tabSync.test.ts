import { describe, expect, it, vi } from 'vitest';
import { createLockManager } from '../../test/support/createLockManager';
import { holdLock, lockHeld } from './tabSync';

describe('holdLock and lockHeld', () => {
  it('tells a lock held from one let go of', async () => {
    const locks = createLockManager();
    const letGo = holdLock('refresh', locks);
    await vi.waitFor(() => expect(locks.holding).toEqual(['refresh']));
    expect(await lockHeld('refresh', locks)).toBe(true);
    expect(await lockHeld('other', locks)).toBe(false);
    letGo();
    await vi.waitFor(() => expect(locks.holding).toEqual([]));
    expect(await lockHeld('refresh', locks)).toBe(false);
  });

  it("does not count the caller's own hold, but counts another's, held or waited for", async () => {
    const locks = createLockManager();
    holdLock('refresh', locks);
    await vi.waitFor(() => expect(locks.holding).toEqual(['refresh']));
    expect(await lockHeld('refresh', locks, true)).toBe(false);
    holdLock('refresh', locks);
    expect(await lockHeld('refresh', locks, true)).toBe(true);
  });

  it('cannot tell without query: held, so that tabs ask as they would without the API', async () => {
    const request = <T>(_: string, callback: () => Promise<T>) => callback();
    expect(await lockHeld('refresh', { request })).toBe(true);
    expect(await lockHeld('refresh', null)).toBe(true);
  });
});
