import type { SessionCore } from './SessionCore';

/** The last input of a session, shared by the tabs (in the shared storage and by message). */
export interface IdleRecord {
  session: string;
  at: number;
  /** Set by the tab that signs the session out for inactivity. */
  ended?: boolean;
}

/** Best effort: a full storage (quota) must not keep the message from the other tabs. */
export function writeIdleRecord(core: SessionCore, record: IdleRecord): void {
  try {
    core.records().storage?.setItem(core.storageKey('idle'), JSON.stringify(record));
  } catch {
    // The other tabs still hear the message.
  }
}

/** The record in the shared storage, or null when there is none or it is not one. */
export function readIdleRecord(core: SessionCore): IdleRecord | null {
  try {
    const value = JSON.parse(
      core.records().storage?.getItem(core.storageKey('idle')) ?? 'null',
    ) as unknown;
    const record = value as Partial<IdleRecord> | null;
    return typeof record?.session === 'string' && typeof record.at === 'number'
      ? (record as IdleRecord)
      : null;
  } catch {
    return null;
  }
}
