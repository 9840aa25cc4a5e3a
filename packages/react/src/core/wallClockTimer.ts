// Long timeouts drift in throttled background tabs and pause while the machine sleeps; a chain of
// short ones re-reads the wall clock, so a due task runs once on wake, never in a burst.

/**
 * Runs one task at a wall-clock time, however long the page slept or was throttled meanwhile:
 * at most `maxStep` ms late after a wake.
 */
export class WallClockTimer {
  constructor(
    private readonly maxStep = 30_000,
    /**
     * Runs the task as soon as a step sees the clock run backwards (set back by hand or by a time
     * sync), for a task that reckons anew from the clock; else a clock set back puts the task off
     * by as much.
     */
    private readonly earlyOnClockBack = false,
  ) {}

  private timer: ReturnType<typeof setTimeout> | undefined;
  private due: number | undefined;
  private task: (() => void) | undefined;

  /** Runs `task` at `at` (ms since the epoch), replacing any task scheduled before. */
  schedule(at: number, task: () => void): void {
    this.cancel();
    this.due = at;
    this.task = task;
    this.arm();
  }

  /** Runs the task now if its time has come (e.g. when the page becomes visible again). */
  check(): void {
    if (this.due !== undefined && Date.now() >= this.due) this.fire();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = undefined;
    this.task = undefined;
  }

  private arm(): void {
    if (this.due === undefined) return;
    const armed = Date.now();
    const wait = Math.min(Math.max(0, this.due - armed), this.maxStep);
    this.timer = setTimeout(() => {
      const now = Date.now();
      if (this.due !== undefined && (now >= this.due || (this.earlyOnClockBack && now < armed))) {
        this.fire();
      } else {
        this.arm();
      }
    }, wait);
  }

  private fire(): void {
    const task = this.task;
    this.cancel();
    task?.();
  }
}
