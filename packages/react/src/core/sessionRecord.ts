import { maxRetryAfter } from './retryAfter';

/**
 * The one record a session keeps in storage shared by the app's tabs (localStorage). It says which
 * refresh token may be sent next, never the token itself, so every tab can tell a current token
 * from a stale or spent one however long it was away. Written only under the cross-tab lock.
 */
export interface SessionRecord {
  /** The session's random id, given at sign-in and shared by its tabs. */
  readonly session: string;
  /** `tokenId` of the refresh token that may be sent next; null once it was sent, or when none. */
  readonly refresh: string | null;
  /** When the session's last token request left, in ms since the epoch. */
  readonly requested: number;
  /** No token request before this time (ms since the epoch): the provider's `Retry-After`. */
  readonly notBefore?: number;
}

/** At most one token request per session in this many ms, whatever the provider answers. */
export const minRequestInterval = 10_000;

/**
 * The earliest the session's next token request may leave (ms since the epoch): the floor after its
 * last one (rule 5), or later when the provider asked (`Retry-After`).
 */
export function nextRequestAt(record: SessionRecord): number {
  return Math.max(record.requested + minRequestInterval, record.notBefore ?? 0);
}

// Without shared storage (no localStorage) the record lives in this page only.
const pageRecords = new Map<string, string>();

/** Reads and writes one session record (see `sessionRecords`). */
export interface SessionRecords {
  /** The storage every tab shares (localStorage), or null when there is none. */
  readonly storage: Storage | null;
  /** False when the record lives in this page only (no shared storage). */
  readonly shared: boolean;
  read(): SessionRecord | null;
  write(record: SessionRecord): void;
  /** Removes the record of `session` (or any record when none is named). */
  remove(session?: string | null): void;
  /**
   * Resolves with true once the record names `session`, else with false after `ms`: a tab may
   * hear of a session (a channel message) before another tab's write of its record reaches it.
   */
  until(session: string, ms: number): Promise<boolean>;
  /** Calls `onChange` when another tab changes the record; returns the unsubscribe function. */
  watch(onChange: () => void): () => void;
}

/** The session record kept under `key` in `storage`, or in this page when `storage` is null. */
export function sessionRecords(key: string, storage: Storage | null): SessionRecords {
  const read = () =>
    parseRecord((storage === null ? pageRecords.get(key) : storage.getItem(key)) ?? null);

  const watch = (onChange: () => void) => {
    const target = globalThis as Partial<Pick<Window, 'addEventListener' | 'removeEventListener'>>;
    if (storage === null || typeof target.addEventListener !== 'function') return () => {};
    const listener = (event: StorageEvent) => {
      if (event.key === key || event.key === null) onChange();
    };
    target.addEventListener('storage', listener);
    return () => target.removeEventListener?.('storage', listener);
  };

  return {
    storage,
    shared: storage !== null,
    read,
    watch,
    write(record) {
      const text = JSON.stringify(record);
      if (storage === null) pageRecords.set(key, text);
      else storage.setItem(key, text);
    },
    remove(session) {
      if (session != null && read()?.session !== session) return;
      if (storage === null) pageRecords.delete(key);
      else storage.removeItem(key);
    },
    until(session, ms) {
      return new Promise((resolve) => {
        const stop = (found: boolean) => {
          clearTimeout(timer);
          unwatch();
          resolve(found);
        };
        const check = () => {
          if (read()?.session === session) stop(true);
        };
        const unwatch = watch(check);
        const timer = setTimeout(stop, ms, false);
        check();
      });
    },
  };
}

function parseRecord(text: string | null): SessionRecord | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<SessionRecord> | null;
    if (
      typeof value?.session !== 'string' ||
      (value.refresh !== null && typeof value.refresh !== 'string') ||
      typeof value.requested !== 'number'
    ) {
      return null;
    }
    return {
      session: value.session,
      refresh: value.refresh,
      requested: value.requested,
      // A hold further ahead than any `Retry-After` is none of ours (a record edited by hand): it
      // would stop renewal in every tab for good.
      ...(typeof value.notBefore === 'number' &&
        value.notBefore <= Date.now() + maxRetryAfter && { notBefore: value.notBefore }),
    };
  } catch {
    return null;
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** An id for a refresh token that reveals nothing about it: the first 128 bits of its SHA-256. */
export async function tokenId(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return base64url(new Uint8Array(digest).slice(0, 16));
}
