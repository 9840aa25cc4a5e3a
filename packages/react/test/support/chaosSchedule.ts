import { seededRandom } from './seededRandom';

/** Where the tabs keep their tokens (the engine's `storage` option). */
export type ChaosStorage = 'session' | 'local' | 'memory';

/**
 * How the tabs take turns: one Web Locks manager for all, or none across tabs (a lock each, as tabs
 * in separate processes without Web Locks). The page's own lock (no Web Locks, tabs in one page)
 * takes turns as Web Locks do here; the tabs tests cover it.
 */
export type ChaosLocks = 'web-locks' | 'none';

/** One step of a run; `tab` is a position in the list of open tabs when the step runs. */
export type ChaosStep =
  /** `wait`: the next step waits for this one to end; else it runs beside what follows. */
  | { do: 'renew'; tab: number; wait: boolean }
  /** An API answers 401: through the tab's authenticated fetch, or as a rejected token. */
  | { do: 'unauthorized'; tab: number; via: 'fetch' | 'rejected'; wait: boolean }
  /** The wall clock jumps (sleep, a throttled tab): past the 10 s floor, expiry, any hold. */
  | { do: 'jump'; seconds: number }
  /** The next refresh is done at the provider; its answer never comes back. */
  | { do: 'lose-answer' }
  /** The next refresh is answered 503 with `Retry-After`: nothing rotated. */
  | { do: 'unavailable'; retryAfter: number }
  /** The next renewal request fails before it reaches the provider (offline). */
  | { do: 'network-error' }
  | { do: 'close'; tab: number; how: 'stop' | 'dispose'; midRenewal: boolean }
  /** A tab opens; `restore`: with a copy of what that tab (by order of opening) stored. */
  | { do: 'open'; restore: number | null }
  | { do: 'sign-out'; tab: number }
  | { do: 'sign-in'; tab: number; user: 'alice' | 'bob' }
  /** The provider revokes every grant (an administrator, a password change). */
  | { do: 'revoke' }
  /** The browser's session at the provider ends: silent authorizations are refused. */
  | { do: 'end-provider-session' }
  /** The tab hears nothing from the others (frozen, or in the back-forward cache). */
  | { do: 'freeze'; tab: number }
  /** Every frozen tab hears again, and the page is shown again (`pageshow`, restored). */
  | { do: 'thaw' }
  /** Waits for every operation under way. */
  | { do: 'settle' };

export interface ChaosPlan {
  seed: number;
  storage: ChaosStorage;
  locks: ChaosLocks;
  /** Tabs open on the session at the start (the first one signed in). */
  tabs: number;
  steps: ChaosStep[];
}

export const maxTabs = 4;
export const accessTokenTtl = 300;

const weights = {
  renew: 18,
  unauthorized: 12,
  jump: 22,
  'lose-answer': 7,
  unavailable: 5,
  'network-error': 5,
  close: 5,
  open: 6,
  'sign-out': 3,
  'sign-in': 4,
  revoke: 2,
  'end-provider-session': 2,
  freeze: 4,
  thaw: 4,
  settle: 6,
} as const;

/** The plan a seed stands for: the same seed, the same plan. */
export function chaosSchedule(seed: number, length = 24): ChaosPlan {
  const random = seededRandom(seed);
  const storage = random.pick(['session', 'local', 'memory'] as const);
  const locks = random.pick(['web-locks', 'none'] as const);
  const tabs = random.int(2, maxTabs);
  let open = tabs;
  // Tabs opened so far, closed ones included (`restore` picks among them).
  let opened = tabs;
  const steps: ChaosStep[] = [];
  let signedOut = false;
  while (steps.length < length) {
    // Once signed out, a sign-in comes soon: a run spent signed out tests little.
    const kind = signedOut && random.next() < 0.35 ? 'sign-in' : random.weighted(weights);
    const tab = random.int(0, open - 1);
    switch (kind) {
      case 'renew':
        steps.push({ do: kind, tab, wait: random.next() < 0.4 });
        break;
      case 'freeze':
        steps.push({ do: kind, tab });
        break;
      case 'sign-out':
        signedOut = true;
        steps.push({ do: kind, tab });
        break;
      case 'unauthorized':
        steps.push({
          do: kind,
          tab,
          via: random.pick(['fetch', 'rejected'] as const),
          wait: random.next() < 0.4,
        });
        break;
      case 'jump':
        steps.push({ do: kind, seconds: random.pick([11, 11, 11, accessTokenTtl + 1, 601]) });
        break;
      case 'unavailable':
        steps.push({ do: kind, retryAfter: random.int(5, 120) });
        break;
      case 'close':
        if (open === 1) continue;
        open -= 1;
        steps.push({
          do: kind,
          tab,
          how: random.pick(['stop', 'dispose'] as const),
          midRenewal: random.next() < 0.5,
        });
        break;
      case 'open':
        if (open === maxTabs) continue;
        open += 1;
        steps.push({
          do: kind,
          restore: storage === 'session' && random.next() < 0.5 ? random.int(0, opened - 1) : null,
        });
        opened += 1;
        break;
      case 'sign-in':
        signedOut = false;
        opened += 1;
        steps.push({ do: kind, tab, user: random.next() < 0.7 ? 'alice' : 'bob' });
        break;
      default:
        steps.push({ do: kind });
    }
  }
  return { seed, storage, locks, tabs, steps };
}

/** A plan as text, a step a line: what a failure prints, to replay it. */
export function describePlan(plan: ChaosPlan): string {
  const steps = plan.steps.map((step, index) => `  ${index + 1}. ${JSON.stringify(step)}`);
  return [
    `seed ${plan.seed}: storage '${plan.storage}', locks '${plan.locks}', ${plan.tabs} tabs`,
    ...steps,
  ].join('\n');
}
