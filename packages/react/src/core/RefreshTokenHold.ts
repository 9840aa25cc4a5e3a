import type { SessionCore } from './SessionCore';
import { holdLock, lockHeld } from './tabSync';

/**
 * With memory storage, the lock that says this tab holds its session's refresh token and can renew
 * for the others (connected, with the token: see `SessionSharing`). The browser lets go of it with
 * the page: a tab without the token asks only while one holds it (`heldElsewhere`).
 */
export class RefreshTokenHold {
  constructor(private readonly core: SessionCore) {}

  /** The lock this tab holds, by name. */
  private heldLock: { name: string; letGo: () => void } | undefined;

  /** The page is in the back-forward cache (`pagehide` persisted): it can answer no tab. */
  inBackForwardCache = false;

  /** Holds the lock, or lets go of it, as this tab's session and user now say. */
  followSession(): void {
    const { authConfig, tabs, session, snapshot, published } = this.core;
    const name =
      authConfig.storage === 'memory' &&
      tabs !== undefined &&
      !this.inBackForwardCache &&
      session !== null &&
      snapshot.user !== null &&
      published.refreshTokenOf(snapshot.user) !== undefined
        ? this.lockName(session)
        : undefined;
    if (name === this.heldLock?.name) return;
    this.heldLock?.letGo();
    this.heldLock =
      name === undefined ? undefined : { name, letGo: holdLock(name, this.core.environment.locks) };
  }

  /** Whether another tab may hold `session`'s refresh token: not if the Web Locks API says none does. */
  heldElsewhere(session: string): Promise<boolean> {
    const name = this.lockName(session);
    return lockHeld(name, this.core.environment.locks, this.heldLock?.name === name);
  }

  private lockName(session: string): string {
    return `${this.core.storageKey('refresh')}:${session}`;
  }
}
