import { nextRequestAt, tokenId } from './sessionRecord';
import type { SessionRecord, SessionRecords } from './sessionRecord';

/** What the guard allows a tab to do with the refresh token it holds. */
export type RefreshDecision =
  /** The session this tab holds is no longer the one the record names (signed out, replaced). */
  | 'ended'
  /** Send it: it is the current one, and it is now marked spent. */
  | 'send'
  /** Do not send it: another tab rotated it, or it was spent on a request whose answer was lost. */
  | 'not-current'
  /** Do not ask the provider yet: the session's last token request left under 10 s ago. */
  | 'too-soon';

/**
 * The session protocol's first rule: a refresh token is presented at most once, by any tab, ever.
 * Every method runs under the cross-tab renewal lock.
 */
export class RefreshGuard {
  constructor(private readonly records: SessionRecords) {}

  /**
   * Whether the session's last token request left under `minRequestInterval` ago, or the provider
   * asked it to wait longer (`holdOff`).
   */
  tooSoon(record: SessionRecord, now = Date.now()): boolean {
    // A clock set back makes `requested` lie in the future: that must not block renewal for good.
    return now >= record.requested && now < nextRequestAt(record);
  }

  /** Decides whether `refreshToken` of `session` may be sent now; on 'send' marks it spent. */
  async claim(session: string, refreshToken: string | undefined): Promise<RefreshDecision> {
    const id = refreshToken === undefined ? null : await tokenId(refreshToken);
    // Read, compare and write in one task: no other task of this page interleaves. Tabs take turns
    // under Web Locks; without them (Safari < 15.4, Firefox < 96) tabs in other processes see this
    // write late, and two that claim within that lag may both send the token (README, rule 1).
    const record = this.records.read();
    if (record?.session !== session) return 'ended';
    if (id === null || id !== record.refresh) return 'not-current';
    if (this.tooSoon(record)) return 'too-soon';
    this.records.write({ ...record, refresh: null, requested: Date.now() });
    return 'send';
  }

  /**
   * Notes a token request that presents no refresh token (a silent authorize). The current
   * refresh token, which another tab may hold unsent, stays current.
   */
  startRequest(record: SessionRecord): void {
    this.records.write({ ...record, requested: Date.now() });
  }

  /** Holds the session's token requests back until `until` (ms since the epoch), in every tab. */
  holdOff(session: string | null, until: number): void {
    const record = this.records.read();
    if (record?.session === session) this.records.write({ ...record, notBefore: until });
  }

  /** Whether `refreshToken` is the one the record says may be sent next. */
  async isCurrent(record: SessionRecord, refreshToken: string | undefined): Promise<boolean> {
    return refreshToken !== undefined && (await tokenId(refreshToken)) === record.refresh;
  }

  /**
   * Records the refresh token the provider handed out (or kept) as the one that may be sent next.
   * A record that changed meanwhile (signed out, signed in anew) is left alone.
   */
  async settle(session: string, refreshToken: string | undefined): Promise<void> {
    const id = refreshToken === undefined ? null : await tokenId(refreshToken);
    const record = this.records.read();
    if (record?.session !== session) return;
    this.records.write({ ...record, refresh: id });
  }
}
