import type { ResolvedIdle } from './idleConfig';
import { readIdleRecord, writeIdleRecord } from './idleRecord';
import type { IdleRecord } from './idleRecord';
import type { IdleSnapshot } from './idleSnapshot';
import type { SessionCore } from './SessionCore';
import type { WallClockTimer } from './wallClockTimer';

/**
 * User input; renewals, API calls and timers are not activity, nor is `scroll`, which a page
 * scrolling itself fires too (a person scrolls with the wheel, keys, touch or the scrollbar).
 */
const inputEvents = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'];

/** How long the tab that signs out at the provider keeps the others from doing the same (ms). */
const holdIdleLock = 5_000;

/** At most one shared write and one tab message about activity per this many ms (or timeout / 2). */
const shareEvery = 5_000;

/**
 * Idle sign-out (the design's session policy): one clock per app origin. Input in any tab moves
 * the end for every tab; the warning shows in every tab at the same time, and once it shows only
 * `stay()` (in any tab) keeps the session; at the end every tab signs out with reason `idle`. The
 * clock is the wall clock: a tab that slept past the end signs out within a second of waking.
 * Loaded in its own chunk, only when `idle` is configured.
 */
export class IdleClock {
  /** What `useIdle` reads (through `AuthClient.idle`); null while nobody is timed. */
  snapshot: IdleSnapshot | null = null;
  /** The latest input this tab knows of, its own or another tab's, for `session`. */
  private last: IdleRecord | null = null;
  /** When this tab last shared its input. */
  private shared = 0;
  /** The wall clock and the monotonic one, as `deadline` last read them. */
  private reading: { wall: number; monotonic: number } | undefined;
  private pendingShare: ReturnType<typeof setTimeout> | undefined;
  /** The session whose end this tab has begun: input while it waits for the lock is no new end. */
  private ending: string | null = null;
  /** Whether the signed-out page is still to show for the session timed, which it does once. */
  private toLand = false;
  private readonly undo: (() => void)[] = [];

  constructor(
    private readonly core: SessionCore,
    private readonly idle: ResolvedIdle,
    /**
     * Short steps (1 s), so a tab that slept past the end signs out soon after it wakes, that
     * check at once when the clock is set back (see `deadline`).
     */
    private readonly timer: WallClockTimer,
  ) {}

  start(): void {
    // StrictMode's remount may load the chunk twice before either load starts the clock.
    if (this.undo.length > 0) return;
    const target = this.core.environment.inputTarget ?? globalThis;
    // On the window, only the browser's own events are a person's (a script's are not); on a
    // target the app gives, every event counts: it is the app's to feed.
    const onInput = (event: Event) => (event.isTrusted || target !== globalThis) && this.input();
    for (const type of inputEvents) {
      target.addEventListener(type, onInput, { passive: true, capture: true });
      this.undo.push(() => target.removeEventListener(type, onInput, { capture: true }));
    }
    target.addEventListener('focus', onInput);
    this.undo.push(() => target.removeEventListener('focus', onInput));
    // Another tab's shared record, for a tab that missed its message (frozen, or still queued):
    // otherwise "stay" there would leave this tab's warning open until its old end.
    const onStorage = (event: StorageEvent) => {
      const stored = event.key === this.core.storageKey('idle') ? readIdleRecord(this.core) : null;
      if (stored !== null) this.onIdleMessage(stored);
    };
    globalThis.addEventListener('storage', onStorage);
    this.undo.push(() => globalThis.removeEventListener('storage', onStorage));
    this.undo.push(this.core.authState.subscribe(() => this.update()));
    this.update();
  }

  stop(): void {
    this.timer.cancel();
    clearTimeout(this.pendingShare);
    for (const undo of this.undo.splice(0)) undo();
    this.showIdle(null);
    // Started again, the clock reads where the session stands then.
    this.last = null;
    this.pendingShare = undefined;
    this.shared = 0;
  }

  /**
   * "Stay signed in": counts as input even while the warning shows, in every tab; but not past
   * the end (a tab that slept with the warning open), which no input can undo.
   */
  stay(): void {
    if (this.core.session === null) return;
    if (!this.overdue()) this.share(Date.now());
    this.check();
  }

  /**
   * Another tab's input or "stay". Each tab ignores its own input once it shows the warning, so
   * what another tab shares it made while active: input shared late (at most one message per 5 s)
   * moves the end even where the warning already shows, as "stay" does.
   */
  onIdleMessage(record: IdleRecord): void {
    if (record.session !== this.core.session) return;
    this.remember(record.at);
    this.check();
  }

  /**
   * For a page that restores `session` from storage: whether its end passed while no tab of it
   * ran (closed, discarded). Then it ends now, as at any tab's end, before it is shown.
   */
  endedAway(session: string | null): boolean {
    const stored = readIdleRecord(this.core);
    if (stored?.session !== session || Date.now() < stored.at + this.idle.timeout) return false;
    this.toLand = true;
    void this.end(true);
    return true;
  }

  /** Whether the tab that signed `session` out did so for inactivity (its mark is shared). */
  endedFor(session: string): boolean {
    const stored = readIdleRecord(this.core);
    return stored?.session === session && stored.ended === true;
  }

  private update(): void {
    const session = this.core.session;
    if (this.core.snapshot.status !== 'authenticated' || session === null) {
      const timed = this.last !== null;
      this.timer.cancel();
      this.last = null;
      this.showIdle(null);
      // Signed out for inactivity by another tab: this one lands on the signed-out page too.
      if (timed) this.landSignedOut();
      return;
    }
    if (this.last?.session === session) return;
    // A session this tab has not timed yet: the shared record's input, or a fresh start now (a new
    // sign-in counts as input).
    const stored = readIdleRecord(this.core);
    if (stored?.session === session) this.last = stored;
    else this.share(Date.now());
    this.toLand = true;
    this.check();
  }

  private input(): void {
    if (this.last === null || this.snapshot?.status === 'warning') return;
    // Input that reaches a tab woken past the end, before its timer does, ends the session.
    if (this.overdue()) return this.check();
    const now = Date.now();
    this.last = { session: this.last.session, at: now };
    // Sooner under a short timeout: another tab must hear of input before its end comes.
    const every = Math.min(shareEvery, this.idle.timeout / 2);
    if (now - this.shared >= every) {
      this.share(now);
    } else {
      this.pendingShare ??= setTimeout(
        () => this.last !== null && this.share(this.last.at),
        this.shared + every - now,
      );
    }
  }

  private share(at: number): void {
    const session = this.core.session;
    if (session === null) return;
    clearTimeout(this.pendingShare);
    this.pendingShare = undefined;
    this.shared = Date.now();
    this.remember(at);
    writeIdleRecord(this.core, { session, at });
    this.core.tabs?.post({ type: 'idle', session, at });
  }

  private remember(at: number): void {
    const session = this.core.session;
    if (session !== null && (this.last?.session !== session || at > this.last.at)) {
      this.last = { session, at };
    }
  }

  /**
   * Whether the end has passed, the other tabs' input counted. Their input only moves the end
   * later, so the shared record is read only once this tab's own end has passed: input events
   * (every pointer move) stay free of storage reads.
   */
  private overdue(): boolean {
    const last = this.last;
    if (last === null || Date.now() < last.at + this.idle.timeout) return false;
    return Date.now() >= this.deadline(last);
  }

  /** The end, after the latest input of any tab (a tab that missed messages reads it here). */
  private deadline(last: IdleRecord): number {
    const stored = readIdleRecord(this.core);
    if (stored?.session === last.session) this.remember(stored.at);
    const now = Date.now();
    const monotonic = performance.now();
    const reading = this.reading;
    this.reading = { wall: now, monotonic };
    // The clock set back (by hand, or a time sync) since the last reading, which the monotonic
    // clock tells: the input moves back by as much, in every tab, so that the idle time already
    // spent still counts (an open warning stays open, the end does not move). Input still "after
    // now" counts as made now. (A machine asleep only moves the wall clock on: idle time too.)
    const back = reading ? reading.wall + (monotonic - reading.monotonic) - now : 0;
    const at = Math.min((this.last as IdleRecord).at - (back > 1_000 ? back : 0), now);
    if (at !== (this.last as IdleRecord).at) {
      this.last = { session: last.session, at };
      writeIdleRecord(this.core, this.last);
      this.shared = now;
    }
    return at + this.idle.timeout;
  }

  /** Where the clock stands now: active until the warning, the warning until the end, the end. */
  private check(): void {
    const last = this.last;
    if (last === null || this.core.stopped) return;
    const deadline = this.deadline(last);
    const warnAt = deadline - this.idle.warning;
    const now = Date.now();
    if (now >= deadline) {
      void this.end();
      return;
    }
    const warning = now >= warnAt;
    this.showIdle({ status: warning ? 'warning' : 'active', deadline });
    this.timer.schedule(warning ? deadline : warnAt, () => this.check());
  }

  private showIdle(next: IdleSnapshot | null): void {
    const { snapshot } = this;
    if (snapshot?.status === next?.status && snapshot?.deadline === next?.deadline) return;
    this.snapshot = next && Object.freeze(next);
    this.core.authState.notify();
  }

  /** The end, for the session this tab shows (or, `restoring`, is about to show). */
  private async end(restoring = false): Promise<void> {
    this.timer.cancel();
    const session = this.core.session;
    const shown = restoring || this.core.snapshot.status === 'authenticated';
    if (session === null || !shown) return;
    if (this.ending === session) return;
    this.ending = session;
    // Every tab reaches the end at once: the first to take the lock signs out at the provider; the
    // others follow its message (reason `idle`), or, having missed it, sign out here. It keeps the
    // lock while it leaves for the provider's logout (at most `holdIdleLock`): a write to the
    // shared storage may reach another tab's process after the lock does, so the mark alone
    // cannot stop a second logout, whose page would void the first one's.
    const led = await this.core.withNamedLock('idle', async () => {
      const stored = readIdleRecord(this.core);
      if (this.core.session !== session) return true;
      if (stored?.session === session && stored.ended === true) return false;
      writeIdleRecord(this.core, { session, at: this.last?.at ?? Date.now(), ended: true });
      await Promise.race([
        this.core.parts.signOut.signOut({ reason: 'idle' }),
        new Promise((resolve) => setTimeout(resolve, holdIdleLock)),
      ]);
      return true;
    });
    if (!led && this.core.session === session) {
      await this.core.parts.signOut.signOut({ reason: 'idle', redirect: false });
    }
    // A tab that did not leave for the provider's logout (it followed, or the provider has none).
    this.landSignedOut();
  }

  /** After an idle sign-out, shows the signed-out page (`post_logout_redirect_uri`) in this tab. */
  private landSignedOut(): void {
    const { status, signOutReason } = this.core.snapshot;
    const page = this.core.authConfig.oidc.post_logout_redirect_uri;
    if (status !== 'unauthenticated' || signOutReason !== 'idle' || page === undefined) return;
    // Reached by this tab's end and by the other tab's message, whichever comes first.
    if (!this.toLand) return;
    this.toLand = false;
    const url = new URL(page);
    this.core.navigate(url.pathname + url.search + url.hash);
  }
}
