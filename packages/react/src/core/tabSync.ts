import { isSharedSession } from './sharedSession';
import type { SharedSession } from './sharedSession';
import { randomId } from './randomId';

/**
 * What tabs of one app tell each other about the session. A session travels with its id, so a
 * tab can tell it from an ended one; with memory storage, without its refresh token.
 */
export type TabMessage =
  /** `from`: the request's own id, which the answers name as their `to`. */
  | { type: 'session-request'; from: string }
  /** A tab without a refresh token (memory storage) asks the one that has it to renew. */
  | { type: 'renew-request'; from: string }
  | { type: 'session'; to: string; session: SharedSession }
  | { type: 'signed-in'; session: SharedSession }
  | { type: 'renewed'; session: SharedSession }
  /**
   * The session `session` ended: every tab that holds it signs out, and with `revoke` revokes the
   * tokens it holds (with memory storage, only one tab holds the refresh token).
   */
  | {
      type: 'signed-out';
      session: string;
      reason: 'signed_out_elsewhere' | 'session_expired' | 'idle';
      revoke?: boolean;
    }
  /** Input (or "stay signed in") at `at` in a tab of `session`, for idle sign-out. */
  | { type: 'idle'; session: string; at: number };

/** The part of `BroadcastChannel` tab sync uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** The part of the Web Locks API (`navigator.locks`) the engine uses. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
  /** The locks held and waited for now. Without it, a tab cannot tell whether another holds one. */
  query?(): Promise<{ held?: { name?: string }[]; pending?: { name?: string }[] }>;
}

function isTabMessage(value: unknown): value is TabMessage {
  const message = value as { type?: unknown; from?: unknown; session?: unknown; reason?: unknown };
  switch (message?.type) {
    case 'session-request':
    case 'renew-request':
      return typeof message.from === 'string';
    case 'session':
      return (
        typeof (message as { to?: unknown }).to === 'string' && isSharedSession(message.session)
      );
    case 'signed-in':
    case 'renewed':
      return isSharedSession(message.session);
    case 'signed-out':
      return (
        typeof message.session === 'string' &&
        (message.reason === 'signed_out_elsewhere' ||
          message.reason === 'session_expired' ||
          message.reason === 'idle')
      );
    case 'idle':
      return (
        typeof message.session === 'string' && typeof (message as { at?: unknown }).at === 'number'
      );
    default:
      return false;
  }
}

/** One tab's end of the session channel (see `tabSync`). */
export interface TabSync {
  post(message: TabMessage): void;
  /**
   * Asks the other tabs for their session (or, with `renew-request`, to renew it first); resolves
   * with the first answer that `accept` takes, or null after `wait` ms.
   */
  request(
    type: 'session-request' | 'renew-request',
    wait: number,
    accept?: (session: SharedSession) => boolean,
  ): Promise<SharedSession | null>;
  close(): void;
}

/**
 * One tab's end of the session channel (a same-origin, in-memory BroadcastChannel). Without
 * BroadcastChannel it does nothing, and each tab keeps its own session.
 */
export function tabSync(
  name: string,
  onMessage: (message: TabMessage) => void,
  createChannel: (name: string) => ChannelLike | null = defaultChannel,
): TabSync {
  const channel = createChannel(name);
  /** The requests waiting for answers, by id: a late answer to one never settles another. */
  const pending = new Map<string, (session: SharedSession) => void>();
  const post = (message: TabMessage) => channel?.postMessage(message);
  channel?.addEventListener('message', ({ data }) => {
    if (!isTabMessage(data)) return;
    if (data.type === 'session') {
      pending.get(data.to)?.(data.session);
      return;
    }
    onMessage(data);
  });

  return {
    post,
    request(type, wait, accept = () => true) {
      if (channel === null) return Promise.resolve(null);
      const id = randomId();
      return new Promise((resolve) => {
        const answer = (session: SharedSession | null) => {
          if (session !== null && !accept(session)) return;
          clearTimeout(timer);
          pending.delete(id);
          resolve(session);
        };
        const timer = setTimeout(() => answer(null), wait);
        pending.set(id, answer);
        post({ type, from: id });
      });
    },
    close() {
      pending.clear();
      channel?.close();
    },
  };
}

function defaultChannel(name: string): ChannelLike | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
}

const localQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` holding the named lock: across tabs with the Web Locks API, else within this page
 * (so two clients in one page still take turns).
 */
export function withLock<T>(
  name: string,
  task: () => Promise<T>,
  locks: LockManagerLike | null = defaultLocks(),
): Promise<T> {
  if (locks !== null) return locks.request(name, task);
  const previous = localQueues.get(name) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  localQueues.set(name, settled);
  void settled.then(() => {
    if (localQueues.get(name) === settled) localQueues.delete(name);
  });
  return run;
}

/**
 * Holds the named lock until the returned function is called; the browser lets go of it with the
 * page. Only where other tabs can see it (`query`): else it holds nothing.
 */
export function holdLock(name: string, locks: LockManagerLike | null = defaultLocks()): () => void {
  if (typeof locks?.query !== 'function') return () => undefined;
  let letGo = () => {};
  const held = new Promise<void>((resolve) => (letGo = resolve));
  // Refused (an opaque origin): nothing held, and other tabs ask as they would without the API.
  locks.request(name, () => held).catch(() => undefined);
  return letGo;
}

/**
 * Whether any tab holds (or waits for) the named lock, this one's own hold (`mine`) left out: false
 * only when the Web Locks API says that none does, true when it cannot tell.
 */
export async function lockHeld(
  name: string,
  locks: LockManagerLike | null = defaultLocks(),
  mine = false,
): Promise<boolean> {
  if (typeof locks?.query !== 'function') return true;
  try {
    const { held = [], pending = [] } = await locks.query();
    return [...held, ...pending].filter((lock) => lock.name === name).length > Number(mine);
  } catch {
    return true;
  }
}

function defaultLocks(): LockManagerLike | null {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks ?? null;
}
