// Long timeouts drift in throttled background tabs and pause while the machine sleeps; a chain of
// short ones re-reads the wall clock, so a due task runs once on wake, never in a burst.

/** Runs one task at a wall-clock time (see `wallClockTimer`). */
export interface WallClockTimer {
  /** Runs `task` at `at` (ms since the epoch), replacing any task scheduled before. */
  schedule(at: number, task: () => void): void;
  /** Runs the task now if its time has come (e.g. when the page becomes visible again). */
  check(): void;
  cancel(): void;
}

/**
 * A timer that runs one task at a wall-clock time, however long the page slept or was throttled
 * meanwhile: at most `maxStep` ms late after a wake.
 */
export function wallClockTimer(
  maxStep = 30_000,
  /**
   * Runs the task as soon as a step sees the clock run backwards (set back by hand or by a time
   * sync), for a task that reckons anew from the clock; else a clock set back puts the task off
   * by as much.
   */
  earlyOnClockBack = false,
): WallClockTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due: number | undefined;
  let task: (() => void) | undefined;

  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    due = undefined;
    task = undefined;
  };

  const fire = () => {
    const run = task;
    cancel();
    run?.();
  };

  const arm = () => {
    if (due === undefined) return;
    const armed = Date.now();
    const wait = Math.min(Math.max(0, due - armed), maxStep);
    timer = setTimeout(() => {
      const now = Date.now();
      if (due !== undefined && (now >= due || (earlyOnClockBack && now < armed))) {
        fire();
      } else {
        arm();
      }
    }, wait);
  };

  return {
    schedule(at, next) {
      cancel();
      due = at;
      task = next;
      arm();
    },
    check() {
      if (due !== undefined && Date.now() >= due) fire();
    },
    cancel,
  };
}
