import type { User, SignoutRedirectArgs } from 'oidc-client-ts';
import type { SignOutReason } from './authState';
import { authError } from './errors';
import type { AuthError } from './errors';
import { toAuthError } from './toAuthError';
import { tabMark } from './arrival';
import type { SignOutOptions } from './clientOptions';
import type { SessionCore } from './SessionCore';
import { removeFromAddress } from './removeFromAddress';

/**
 * Sign-out (design: Sign-out): local state first in every tab, then RP-initiated logout with
 * `state`; and the return from it, completed with its reason for the signed-out page.
 */
export class SignOut {
  constructor(private readonly core: SessionCore) {}

  /**
   * Signs out: clears the local session (in every tab) first, optionally revokes the tokens, then
   * ends the session at the provider (RP-initiated logout with `id_token_hint`, `client_id`,
   * `post_logout_redirect_uri` and `state`) and returns to `post_logout_redirect_uri`.
   */
  signOut(options: SignOutOptions = {}): Promise<void> {
    this.signingOut ??= this.runSignOut(options).finally(() => {
      this.signingOut = undefined;
    });
    return this.signingOut;
  }

  signingOut: Promise<void> | undefined;

  /** (Re)arms the watch of the sign-out redirect under way (see `SignIn.watchRedirect`). */
  watch: (() => void) | undefined;

  async runSignOut(options: SignOutOptions): Promise<void> {
    const shown = this.core.snapshot.user;
    const stored = shown === null ? await this.core.userStorage.readStored() : null;
    const reason = options.reason ?? 'user';
    // A redirect sign-in still on this page is over: it settles, and sign-in may begin anew.
    this.core.parts.signIn.redirecting?.letGo();
    // A tab without a session of its own (signed out, or still restoring) may not have taken a
    // sign-in made elsewhere yet: it signs out of the session the record names, in every tab.
    const ended = this.core.leave() ?? this.core.records().read()?.session ?? null;
    // The tokens of the session that ends (a store still restoring may hold an older one's).
    const user = shown ?? (stored?.session === ended ? stored.user : null);
    this.core.set('signing-out', null, null);
    await this.core.userStorage.clearUser();
    this.core.records().remove(ended);
    await this.core.presenter.forgetKeys((session) => session === ended);
    if (ended !== null) {
      this.core.tabs?.post({
        type: 'signed-out',
        session: ended,
        reason: reason === 'idle' ? 'idle' : 'signed_out_elsewhere',
        revoke: options.revokeTokens === true,
      });
    }
    // A renewal another tab has under way may write the record back as it ends: remove it again
    // once that renewal has let go of the lock. This tab's own writes none back (its answer is
    // dropped): not waited for, as it may wait for its timeout (a hidden iframe that gets no answer).
    if (!this.core.parts.renewal.holdsLock) {
      await this.core.withNamedLock('renew', async () => this.core.records().remove(ended));
    }
    if (options.revokeTokens === true && user !== null) await this.revoke(user);

    if (options.redirect === false) {
      this.core.set('unauthenticated', null, null, reason);
      return;
    }
    let endSession: string | undefined;
    try {
      endSession = await this.core.manager.metadataService.getEndSessionEndpoint();
    } catch (cause) {
      // The provider's session may be alive: say so, rather than sign out here only, unnoticed.
      this.core.set('unauthenticated', null, toAuthError(cause, 'sign-out'), reason);
      return;
    }
    const returnTo = this.core.authConfig.oidc.post_logout_redirect_uri;
    // A provider without RP-initiated logout: signing out here is all there is.
    if (endSession === undefined) {
      if (process.env.NODE_ENV !== 'production') {
        console.warn(
          "oidc-kit: the provider announces no `end_session_endpoint`: signed out here only. The provider's session is still alive, so the next sign-in may not ask for a password; end it the provider's own way (see docs/providers) after `signOut({ redirect: false })`.",
        );
      }
      this.core.set('unauthenticated', null, null, reason);
      return;
    }
    const extraQueryParams: Record<string, string> = {};
    if (options.ui_locales !== undefined) extraQueryParams.ui_locales = options.ui_locales;
    if (options.logout_hint !== undefined) extraQueryParams.logout_hint = options.logout_hint;
    const args: SignoutRedirectArgs & { client_id: string } = {
      id_token_hint: user?.id_token,
      client_id: this.core.authConfig.oidc.client_id,
      post_logout_redirect_uri: returnTo,
      // A state only travels with a return address; the provider must send it back unchanged.
      state: {},
      // Replaces the configured sign-in extras (`resource`, `acr_values`…): not logout parameters.
      extraQueryParams,
    };
    try {
      if (returnTo !== undefined) tabMark(this.core, 'signed-out').write(reason);
      this.watch = () =>
        this.core.parts.signIn.watchRedirect('signing-out', () => {
          this.signingOut = undefined;
          this.core.set('unauthenticated', null, null, reason);
        });
      this.watch();
      await this.core.manager.signoutRedirect(args);
    } catch (cause) {
      tabMark(this.core, 'signed-out').remove();
      this.core.set('unauthenticated', null, toAuthError(cause, 'sign-out'), reason);
    }
  }

  /** Completes the return from the provider's logout: `state` checked, the address cleaned. */
  async completeSignOut(url: string): Promise<void> {
    const marks = tabMark(this.core, 'signed-out');
    const mark = marks.read();
    marks.remove();
    let error: AuthError | null = null;
    let reason: SignOutReason | null = null;
    try {
      // A provider that returns without `state` is accepted; one that returns a `state` must
      // return the one this browser sent.
      const { state, response } = await this.core.oidcClient().readSignoutResponseState(url, true);
      // oidc-client-ts finds any request's `state`: a sign-in's answers no sign-out.
      const ofSignIn = state !== undefined && state.request_type !== 'so:r';
      // RFC 6749 3.1, as for a sign-in response: a `state` given twice leaves unsaid which one the
      // provider sent (oidc-client-ts reads the first). The one read is spent all the same.
      if (ofSignIn || new URL(url).searchParams.getAll('state').length > 1) {
        throw authError(
          'callback_state_mismatch',
          process.env.NODE_ENV !== 'production' && [
            ofSignIn
              ? 'This return from sign-out carries the `state` of a sign-in, not of a sign-out: the address was changed.'
              : 'This return from sign-out has `state` more than once, so which one the provider sent is unknown: the address was changed.',
            'The local session was already cleared; the parameters were removed from the address.',
          ],
        );
      }
      // An error from the provider's logout: the provider session may well be alive.
      if (response.error) throw Object.assign(response, { name: 'ErrorResponse' });
      reason = mark === 'idle' ? 'idle' : 'user';
    } catch (cause) {
      error = toAuthError(cause, 'sign-out');
    }
    removeFromAddress(url, ['state', 'error', 'error_description', 'error_uri']);
    await this.core.tabSession.restore();
    if (this.core.snapshot.status === 'unauthenticated')
      this.core.set('unauthenticated', null, error, reason);
  }

  async revoke(user: User): Promise<void> {
    const client = this.core.oidcClient();
    const tokens: [string | undefined, 'refresh_token' | 'access_token'][] = [
      [this.core.published.refreshTokenOf(user), 'refresh_token'],
      [user.access_token, 'access_token'],
    ];
    for (const [token, type] of tokens) {
      // Best effort: the local session is gone already, and an unrevoked token expires.
      if (token !== undefined) await client.revokeToken(token, type).catch(() => undefined);
    }
  }
}
