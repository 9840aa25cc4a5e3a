import { loadedCallback, loadedSignOutReturn } from './arrival';
import type { SessionCore } from './SessionCore';
import { WallClockTimer } from './wallClockTimer';

/**
 * Whether the engine runs, between `activate()` and `deactivate()` (`AuthClient`'s counted
 * `start()` and `stop()`): connected to the other tabs and listening to the page, the address the
 * app loaded on handled once (`arrive`), and what stopping undoes (`teardown`).
 */
export class Activation {
  /** Connected to the tabs and listening (between `activate()` and `deactivate()`). */
  active = false;

  /** The run the last `activate()` began (see there), and whether it has settled. */
  running: Promise<void> | undefined;
  private settled = false;

  /** What `deactivate()` undoes: the listeners `activate()` added. */
  readonly teardown: (() => void)[] = [];

  constructor(private readonly core: SessionCore) {}

  /**
   * Deactivated (until the next `activate()`) or disposed: work under way must schedule nothing
   * more. A core never activated is not stopped (a client may act without `start()`).
   */
  get stopped(): boolean {
    return (!this.active && this.running !== undefined) || this.core.authState.disposed;
  }

  /**
   * Runs the engine: connects to the other tabs and listens to the page, then restores the
   * session. The first time, `arrive()` handles the address the app loaded on (a callback, a
   * sign-out return, or a restore); after a `deactivate()` the session is restored anew (it may
   * have changed meanwhile). A call while the run is under way (StrictMode's remount) joins it.
   */
  activate(): Promise<void> {
    const core = this.core;
    if (!this.active) {
      this.active = true;
      core.tabSession.connect();
      // Stopped and started again (a remount) while a redirect is under way: watch again.
      core.parts.signIn.redirecting?.watch();
      if (core.parts.signOut.signingOut !== undefined) core.parts.signOut.watch?.();
      const idle = core.authConfig.idle;
      // Its own chunk: an app without `idle` never loads it.
      if (idle !== null) {
        void import('./IdleClock').then(({ IdleClock }) => {
          if (!this.active) return;
          core.idleClock ??= new IdleClock(core, idle, new WallClockTimer(1_000, true));
          core.idleClock.start();
        });
      }
    }
    if (this.running === undefined || this.settled) {
      this.settled = false;
      const run = this.running === undefined ? this.arrive() : core.tabSession.restore();
      this.running = run.finally(() => {
        this.settled = true;
      });
    }
    return this.running;
  }

  /** Stops timers, listeners and the tab channel, at once; the state stays as it is. */
  deactivate(): void {
    const core = this.core;
    this.active = false;
    core.idleClock?.stop();
    core.renewal.stopRenewing();
    core.parts.signIn.stopWatching();
    for (const undo of this.teardown.splice(0)) undo();
    core.tabs?.close();
    core.tabs = undefined;
  }

  /** Handles the address the app loaded on: a callback, a sign-out return, or neither (restore). */
  private arrive(): Promise<void> {
    const url = globalThis.location.href;
    const callback = loadedCallback(this.core, url);
    if (callback !== undefined) return this.core.parts.callback.handleCallback(callback);
    const signOutReturn = loadedSignOutReturn(this.core, url);
    if (signOutReturn !== undefined) return this.core.parts.signOut.completeSignOut(signOutReturn);
    return this.core.tabSession.restore();
  }
}
