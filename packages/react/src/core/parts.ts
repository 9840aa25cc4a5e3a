import { Callback } from './Callback';
import { RefreshGuard } from './refreshGuard';
import { RenewalRunner } from './RenewalRunner';
import type { SessionCore } from './SessionCore';
import { SessionSharing } from './SessionSharing';
import { SignIn } from './SignIn';
import { SignOut } from './SignOut';
import { UserChecks } from './UserChecks';

/**
 * The engine's parts that act on the session (sign-in, the callback, sign-out, how a renewal runs
 * and its guard, the ID-token checks, sharing between tabs), built by and for one `SessionCore`.
 * They reach each other through `core.parts`.
 */
export function createParts(core: SessionCore) {
  return {
    signIn: new SignIn(core),
    callback: new Callback(core),
    signOut: new SignOut(core),
    renewal: new RenewalRunner(core),
    guard: new RefreshGuard(core.records()),
    checks: new UserChecks(core),
    sharing: new SessionSharing(core),
  };
}

export type Parts = ReturnType<typeof createParts>;
