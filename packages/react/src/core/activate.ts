import { loadedCallback, loadedSignOutReturn } from './arrival';
import type { SessionCore } from './SessionCore';
import { wallClockTimer } from './wallClockTimer';

/**
 * Runs the engine (`AuthClient`'s counted `start()`): connects to the other tabs and listens to
 * the page, then restores the session. The first time, `arrive` handles the address the app
 * loaded on (a callback, a sign-out return, or a restore); after a `deactivate` the session is
 * restored anew (it may have changed meanwhile). A call while the run is under way (StrictMode's
 * remount) joins it. Whether it runs is the core's (`active`, `activation`, `stopped`).
 */
export function activate(core: SessionCore): Promise<void> {
  if (!core.active) {
    core.active = true;
    core.tabSession.connect();
    core.refreshHold.followSession();
    // Stopped and started again (a remount) while a redirect is under way: watch again.
    core.parts.signIn.redirecting?.watch();
    if (core.parts.signOut.signingOut !== undefined) core.parts.signOut.watch?.();
    const idle = core.authConfig.idle;
    // Its own chunk: an app without `idle` never loads it.
    if (idle !== null) {
      core.idleLoading ??= import('./IdleClock').then(
        ({ IdleClock }) =>
          (core.idleClock ??= new IdleClock(core, idle, wallClockTimer(1_000, true))),
        () => (core.idleLoading = undefined),
      );
      void core.idleLoading.then((clock) => core.active && clock?.start());
    }
  }
  if (core.activation === undefined || core.activationSettled) {
    core.activationSettled = false;
    const run = core.activation === undefined ? arrive(core) : core.tabSession.restore();
    core.activation = run.finally(() => {
      core.activationSettled = true;
    });
  }
  return core.activation;
}

/**
 * Stops the engine (`AuthClient`'s last `stop()`): timers, listeners and the tab channel, at once;
 * the state stays as it is.
 */
export function deactivate(core: SessionCore): void {
  core.active = false;
  core.idleClock?.stop();
  core.renewal.stopRenewing();
  core.parts.signIn.stopWatching();
  for (const undo of core.teardown.splice(0)) undo();
  core.tabs?.close();
  core.tabs = undefined;
  core.refreshHold.followSession();
}

/** Handles the address the app loaded on: a callback, a sign-out return, or neither (restore). */
function arrive(core: SessionCore): Promise<void> {
  const url = globalThis.location.href;
  const callback = loadedCallback(core, url);
  if (callback !== undefined) return core.parts.callback.handleCallback(callback);
  const signOutReturn = loadedSignOutReturn(core, url);
  if (signOutReturn !== undefined) return core.parts.signOut.completeSignOut(signOutReturn);
  return core.tabSession.restore();
}
