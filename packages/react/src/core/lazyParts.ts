import { createAuthFetch } from './authFetch';
import { Callback } from './Callback';
import { RefreshGuard } from './refreshGuard';
import { RenewalRunner } from './RenewalRunner';
import type { SessionCore } from './SessionCore';
import { SessionSharing } from './SessionSharing';
import { SignIn } from './SignIn';
import { SignOut } from './SignOut';
import { UserChecks } from './UserChecks';

/**
 * The parts of the engine a first render does not need: sign-in, the callback, sign-out, how a
 * renewal runs and its guard, the ID-token checks and the authenticated fetch. `SessionCore` loads
 * this module with one `import()`, so an app's bundler puts them in a chunk of their own.
 */
export function createLazyParts(core: SessionCore) {
  return {
    signIn: new SignIn(core),
    callback: new Callback(core),
    signOut: new SignOut(core),
    renewal: new RenewalRunner(core),
    guard: new RefreshGuard(core.records()),
    checks: new UserChecks(core),
    sharing: new SessionSharing(core),
    fetch: createAuthFetch(core.renewal, core.config.apiOrigins, core.environment.fetch),
  };
}

export type LazyParts = ReturnType<typeof createLazyParts>;
