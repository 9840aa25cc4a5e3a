import { assertIssuer } from './assertIssuer';
import { authError } from './errors';
import { providerErrorKept, refusalUrl } from './refusalToOpener';
import { removeFromAddress } from './removeFromAddress';
import { safeReturnTo } from './returnTo';
import { toAuthError } from './toAuthError';
import type { AuthOperation } from './toAuthError';
import type { SessionCore } from './SessionCore';

const authParams = [
  'code',
  'state',
  'session_state',
  'iss',
  'error',
  'error_description',
  'error_uri',
];

/** Callbacks under way in this page, by client id and URL (see `Callback.handleCallback`). */
const callbacksInFlight = new Map<string, { owner: SessionCore; run: Promise<void> }>();

/** The callback of client `clientId` being processed in this page, if any: its run. */
export function callbackUnderWay(clientId: string): Promise<void> | undefined {
  for (const [key, { run }] of callbacksInFlight) if (key.startsWith(`${clientId}\n`)) return run;
  return undefined;
}

/**
 * The redirect callback: the address cleaned before the code is exchanged, the `iss` checked, the
 * user landed on the path they asked for; a failure keeps the session there is (rule 6).
 */
export class Callback {
  constructor(private readonly core: SessionCore) {}

  /**
   * Processes the callback in `url` once per URL, however often it is asked: later calls get the
   * first call's promise; another client of the same id (a second provider) follows its result.
   */
  handleCallback(url: string): Promise<void> {
    const key = `${this.core.authConfig.oidc.client_id}\n${url}`;
    const inFlight = callbacksInFlight.get(key);
    if (inFlight === undefined) {
      // Once settled, the address no longer holds the callback, so nothing asks again for it.
      const run = this.processCallback(url).finally(() => callbacksInFlight.delete(key));
      callbacksInFlight.set(key, { owner: this.core, run });
      return run;
    }
    return inFlight.owner === this.core
      ? inFlight.run
      : inFlight.run.then(() => this.core.tabSession.restore());
  }

  async processCallback(address: string): Promise<void> {
    // The address bar is clean before the code is exchanged (session protocol, rule 7).
    this.cleanAddress(address);
    const url = providerErrorKept(address);
    const parsed = new URL(url);
    const params = parsed.searchParams;
    // An empty `error` is none (RFC 6749 4.1.2.1 gives it a code): the response lacks its code.
    const operation: AuthOperation = params.get('error') ? 'sign-in' : 'callback';
    this.core.set('signing-in', null, null);
    let returnTo = '/';
    let requestType: string | undefined;
    try {
      const { state } = await this.core.oidcClient().readSigninResponseState(url, false);
      requestType = state.request_type;
      // A logout return (with an `error`) to a post_logout_redirect_uri that is also a redirect URI.
      if (requestType === 'so:r') return await this.core.parts.signOut.completeSignOut(url);
      const data = state.data as { returnTo?: unknown } | undefined;
      returnTo = safeReturnTo(data?.returnTo, this.core.origin());
      const issuer = await assertIssuer(this.core);
      await this.core.parts.checks.checkCallbackIssuer(url, params, issuer);
      // RFC 6749 3.1: no response parameter is given twice; a repeat, or another one in the
      // fragment, leaves unsaid which was meant.
      const fragment = new URLSearchParams(parsed.hash.slice(1));
      if (authParams.some((name) => params.getAll(name).length > 1 || fragment.has(name))) {
        throw authError(
          'callback_state_mismatch',
          process.env.NODE_ENV !== 'production' && [
            'This sign-in response has a parameter more than once, or in the fragment as well as the query, so which one the provider sent is unknown: the address was changed.',
            'Nothing was stored and the callback parameters were removed from the address.',
          ],
        );
      }
      await this.core.presenter.dpop();
      const user = await this.core.parts.signIn.exchangeFresh(() =>
        this.core.manager.signinCallback(url),
      );
      if (user === undefined) return; // a popup or iframe callback, handed to the opener
      await this.core.parts.signIn.beginSession(user);
    } catch (cause) {
      const error = toAuthError(cause, operation);
      if (requestType === 'si:p' || requestType === 'si:s') {
        // This is the popup or the silent iframe. The session is its opener's, whose storage it
        // may share: leave it alone, and hand the failure over (the opener then closes a popup).
        this.core.set('error', null, error);
        const failed = refusalUrl(url, error);
        await (
          requestType === 'si:p'
            ? this.core.manager.signinPopupCallback(failed)
            : this.core.manager.signinSilentCallback(failed)
        ).catch(() => undefined);
        return;
      }
      // The response is spent, whatever failed: a replay of it finds no sign-in to finish.
      await this.core
        .oidcClient()
        .readSigninResponseState(url, true)
        .catch(() => undefined);
      // A failed sign-in (a cancelled step-up, a forged or replayed response) says nothing about
      // the session there is: keep it (rule 6).
      const stored = await this.core.userStorage.readStored().catch(() => null);
      if (stored !== null && this.core.tabSession.isCurrent(stored, this.core.records().read())) {
        this.core.session = stored.session;
        // A replayed or forged response is no failure of the user's: nothing to report.
        const shown = error.code === 'callback_state_mismatch' ? null : error;
        this.core.set('authenticated', stored.user, shown);
        this.core.renewal.scheduleRenewal(stored.user);
      } else {
        await this.core.userStorage.clearUser();
        const code = error.code;
        this.core.set(
          code === 'callback_state_mismatch' ? 'unauthenticated' : 'error',
          null,
          error,
        );
      }
    }
    this.core.navigate(returnTo);
  }

  cleanAddress(url: string): void {
    removeFromAddress(url, authParams);
  }
}
