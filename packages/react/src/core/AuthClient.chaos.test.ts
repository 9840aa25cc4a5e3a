import { afterEach, expect, test, vi } from 'vitest';
import { chaosSchedule, describePlan } from '../../test/support/chaosSchedule';
import { runChaos } from '../../test/support/chaosRun';

// Random faults across tabs (rule 1 of the session protocol first), from fixed seeds: a seed is a
// plan (storage, locks, tabs, steps) that a failure prints with what the tabs showed after each
// step; `chaosSchedule(seed)` gives the same plan again. CHAOS_SEEDS=100-300 runs other seeds, and
// CHAOS_STEPS=48 longer plans (24 steps by default; a seed's plan begins the same at any length).

afterEach(() => {
  vi.useRealTimers();
});

/** Seeds 1 to 12, or those CHAOS_SEEDS names: `7`, or `100-300`. */
function seeds(): number[] {
  const [from, to = from] = (process.env.CHAOS_SEEDS ?? '1-12').split('-').map(Number);
  return Array.from(
    { length: (to as number) - (from as number) + 1 },
    (_, index) => index + (from as number),
  );
}

const steps = Number(process.env.CHAOS_STEPS ?? 24);

// A memory tab whose refresh token no open tab holds waits seconds for one at each renewal.
const timeout = (60_000 * steps) / 24;

test.each(seeds())(
  'seed %i: the session protocol holds through random faults',
  async (seed) => {
    const plan = chaosSchedule(seed, steps);
    const { failed, trace } = await runChaos(plan);
    const replay = `${describePlan(plan)}\nThe tabs after each step:\n${trace.join('\n')}`;
    expect(failed, replay).toEqual([]);
  },
  timeout,
);
