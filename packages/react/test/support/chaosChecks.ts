import type { AuthClient } from '../../src/core/AuthClient';
import type { FakeProvider } from './FakeProvider';

/**
 * The id of the session a tab holds. The engine's alone, not public: but "a tab shows a session
 * that was signed out" is about it (a stale tab signs out of an older session than the record's).
 */
export function sessionOf(client: AuthClient): string | null {
  return (client as unknown as { core?: { session: string | null } }).core?.session ?? null;
}

/** Whether a tab still shows a session it has left, waiting for the one that replaced it. */
export function betweenSessions(client: AuthClient): boolean {
  return client.getSnapshot().status === 'authenticated' && sessionOf(client) === null;
}

/** The session the shared record names, or null. */
export function recordedSession(shared: Storage): string | null {
  for (let index = 0; index < shared.length; index += 1) {
    const key = shared.key(index) as string;
    if (key.startsWith('oidc-kit:session:')) {
      return (JSON.parse(shared.getItem(key) as string) as { session: string }).session;
    }
  }
  return null;
}

/** A tab's state in a line: its status and the start of its session's id. */
export function describeTab(client: AuthClient): string {
  return `${client.getSnapshot().status} ${sessionOf(client)?.slice(0, 6) ?? '-'}`;
}

/**
 * What must hold once `tabs` have caught up, a line for each failure: none authenticated with a
 * session signed out, nor with another session than the record's, nor (with `grants`) with tokens
 * of a grant the provider ended; the record names no signed-out session.
 */
export function settledFailures(
  tabs: readonly AuthClient[],
  shared: Storage,
  provider: FakeProvider,
  signedOut: ReadonlySet<string>,
  grants: boolean,
): string[] {
  const failed: string[] = [];
  const record = recordedSession(shared);
  if (record !== null && signedOut.has(record))
    failed.push('the record names a signed-out session');
  for (const [index, client] of tabs.entries()) {
    const { status, user } = client.getSnapshot();
    if (status !== 'authenticated') continue;
    const shown = `open tab ${index} shows ${user?.profile.sub} authenticated`;
    const session = sessionOf(client);
    if (session !== null && signedOut.has(session)) failed.push(`${shown}, a session signed out`);
    if (session !== record) failed.push(`${shown} with another session than the record's`);
    if (grants && !provider.grantStands(user?.access_token ?? '')) {
      failed.push(`${shown} with a token whose grant the provider ended`);
    }
  }
  return failed;
}
