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
 * The engine's parts that act on the session (sign-in, the callback, sign-out, how a renewal runs
 * and its guard, the ID-token checks, sharing between tabs, the authenticated fetch), built by
 * and for one `SessionCore`. They reach each other through `core.parts`.
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
    fetch: createAuthFetch(
      core.config.dpop === false
        ? core.renewal
        : {
            getAccessToken: () => core.renewal.getAccessToken(),
            // A nonce the resource server asks for again is no fault of the token: no renewal.
            renewAfterUnauthorized: (rejected, response) =>
              /\buse_dpop_nonce\b/.test(response.headers.get('WWW-Authenticate') ?? '')
                ? Promise.resolve(null)
                : core.renewal.renewAfterUnauthorized(rejected),
            sendWithToken: (request, token, send) => core.sendWithToken(request, token, send),
          },
      core.config.apiOrigins,
      core.environment.fetch,
    ),
  };
}

export type Parts = ReturnType<typeof createParts>;
