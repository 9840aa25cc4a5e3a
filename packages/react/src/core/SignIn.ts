import type { User } from 'oidc-client-ts';
import { tabMark } from './arrival';
import { assertIssuer } from './assertIssuer';
import { authError } from './errors';
import { currentPath, safeReturnTo } from './returnTo';
import { toAuthError } from './toAuthError';
import { joinCallback } from './joinCallback';
import { warnSignInOnCallback } from './warnSignInOnCallback';
import { randomId } from './randomId';
import type { SignInOptions } from './clientOptions';
import type { SessionCore } from './SessionCore';

/** Sign-in by redirect or popup, step-up included; a new session is booked for every tab. */
export class SignIn {
  constructor(private readonly core: SessionCore) {}

  /**
   * Starts sign-in: redirects this page (default) or opens a popup. While one sign-in is under
   * way, another call joins it instead of starting a second one; so does one asked for while this
   * page completes a sign-in, if that one ends signed in (`joinCallback`).
   */
  signIn(options: SignInOptions = {}): Promise<void> {
    if (this.signingIn !== undefined) return this.signingIn;
    if (process.env.NODE_ENV !== 'production') warnSignInOnCallback(this.core);
    const callback = joinCallback(this.core, options);
    const started =
      callback === undefined
        ? this.runSignIn(options)
        : callback.then((joined) => (joined ? undefined : this.runSignIn(options)));
    const running: Promise<void> = started.finally(() => {
      // The redirect watch may have let go of this sign-in, and a newer one begun since.
      if (this.signingIn === running) this.signingIn = undefined;
    });
    this.signingIn = running;
    return running;
  }

  signingIn: Promise<void> | undefined;

  /**
   * The redirect sign-in under way, until its page leaves: `watch` (re)arms its watch, `letGo`
   * settles it (then `then`, e.g. a restore, first) and no later call joins it.
   */
  redirecting: { watch(): void; letGo(then?: () => Promise<void>): void } | undefined;

  redirectWatch: ReturnType<typeof setTimeout> | undefined;

  async runSignIn(options: SignInOptions): Promise<void> {
    const here = currentPath();
    // The redirect_uri page has nothing to come back to (sign-in started there: "Try again" after a
    // failure that stayed on it): home instead. An app whose redirect_uri is `/` keeps its query.
    const callback = new URL(this.core.manager.settings.redirect_uri, this.core.origin()).pathname;
    const onCallback = callback !== '/' && here.split(/[?#]/)[0] === callback;
    const returnTo = safeReturnTo(
      options.returnTo ?? (onCallback ? '/' : here),
      this.core.origin(),
    );
    const prior = this.core.snapshot.status === 'authenticated' ? this.core.snapshot.user : null;
    const epoch = this.core.epoch;
    this.core.renewal.stopRenewing();
    this.core.set('signing-in', null, null);
    const args = {
      state: { returnTo },
      nonce: randomId(),
      prompt: options.prompt,
      login_hint: options.login_hint,
      ui_locales: options.ui_locales,
      extraQueryParams: options.extraQueryParams,
    };
    try {
      // A ready-made UserManager may ask for it; the callback is read from the query only.
      if (this.core.manager.settings.response_mode === 'fragment') {
        throw authError(
          'config_invalid',
          process.env.NODE_ENV !== 'production' && [
            "oidc-kit config: the UserManager's `response_mode` is 'fragment', but oidc-kit reads the sign-in response from the query. Leave `response_mode` unset, or set it to 'query'.",
            'Nothing was sent to the provider.',
          ],
          { field: 'response_mode' },
        );
      }
      await assertIssuer(this.core);
      // Before the provider is asked anything: `dpop: true` with a provider without DPoP fails here.
      await this.core.presenter.dpop();
      if (options.popup === true) {
        // Without this, a popup the user closes leaves sign-in waiting forever.
        const user = await this.exchangeFresh(() =>
          this.core.manager.signinPopup({ ...args, popupAbortOnClose: true }),
        );
        if (user !== undefined) await this.beginSession(user);
      } else {
        let redirecting: SignIn['redirecting'];
        await new Promise<void>((resolve, reject) => {
          const own = {
            // The page stayed after all: settled on the state restored. Or the state moved on
            // (another tab's session, a sign-out): settled as it is.
            watch: () =>
              this.watchRedirect(
                'signing-in',
                () => own.letGo(() => this.core.tabSession.restore()),
                () => own.letGo(),
              ),
            letGo: (then?: () => Promise<void>) => {
              if (this.redirecting !== own) return;
              this.redirecting = undefined;
              this.stopWatching();
              this.signingIn = undefined;
              if (then === undefined) resolve();
              else void then().finally(resolve);
            },
          };
          redirecting = this.redirecting = own;
          own.watch();
          tabMark(this.core, 'signing-in').write('redirect');
          this.core.manager.signinRedirect(args).then(() => resolve(), reject);
        }).finally(() => {
          if (this.redirecting === redirecting) this.redirecting = undefined;
        });
      }
    } catch (cause) {
      const error = toAuthError(cause, 'sign-in');
      const now = this.core.snapshot;
      if (now.status !== 'signing-in') {
        // Another tab's sign-in or sign-out reached this one meanwhile (or this tab signs out): that
        // stands, with the failure beside it; the session it holds is not this sign-in's to clear.
        if (now.status !== 'signing-out')
          this.core.set(now.status, now.user, error, now.signOutReason);
        return;
      }
      if (prior !== null && this.core.epoch === epoch) {
        // A second sign-in (step-up, another account) failed: the first session is still good.
        this.core.set('authenticated', prior, error);
        this.core.renewal.scheduleRenewal(prior);
        return;
      }
      await this.core.userStorage.clearUser();
      this.core.set(error.code === 'popup_closed' ? 'unauthenticated' : 'error', null, error);
    }
  }

  /** Stops watching for a redirect that never happens. */
  stopWatching(): void {
    clearTimeout(this.redirectWatch);
  }

  /**
   * A redirect that never happens (a `beforeunload` prompt answered "stay", a blocked navigation)
   * must not leave the page `leaving` (signing in, or out) forever: `stayed` settles it, and
   * `moved` runs when the state has left `leaving` meanwhile.
   */
  watchRedirect(leaving: 'signing-in' | 'signing-out', stayed: () => void, moved = () => {}): void {
    clearTimeout(this.redirectWatch);
    this.redirectWatch = setTimeout(() => {
      const visible =
        (globalThis as { document?: Document }).document?.visibilityState !== 'hidden';
      if (this.core.stopped) return;
      if (this.core.snapshot.status !== leaving) return moved();
      // A hidden page may still be on its way out: look again later, rather than never.
      if (!visible) return this.watchRedirect(leaving, stayed, moved);
      stayed();
    }, 15_000);
  }

  /**
   * Runs a sign-in exchange whose user is stored as a new session of this tab. Its answer is
   * dropped (undefined) when the tab signed out meanwhile, here or in another tab (rule 4).
   */
  async exchangeFresh<T>(exchange: () => Promise<T>): Promise<T | undefined> {
    const incoming = randomId();
    const epoch = this.core.epoch;
    this.core.incoming = incoming;
    this.core.freshSignIn = true;
    let result: T;
    try {
      result = await exchange();
    } catch (error) {
      // Not a fresh sign-in any more while its key is deleted (`UserChecks` reads it).
      this.core.freshSignIn = false;
      await this.forgetIncoming(incoming);
      throw error;
    } finally {
      this.core.freshSignIn = false;
    }
    // A session that expired meanwhile is no sign-out: the new one stands.
    if (this.core.epoch === epoch || this.core.snapshot.signOutReason === 'expired') return result;
    this.core.incoming = null;
    await this.core.userStorage.clearUser();
    await this.forgetIncoming(incoming);
    return undefined;
  }

  /** The token request may have carried a proof: its key pair binds no token anyone keeps. */
  async forgetIncoming(incoming: string): Promise<void> {
    if (this.core.presenter.proving) {
      await this.core.presenter.forgetKeys((session) => session === incoming);
    }
  }

  /** Makes the session of the sign-in just finished this tab's, records it, then announces it. */
  async beginSession(user: User): Promise<void> {
    const session = this.core.incoming as string;
    this.core.incoming = null;
    // Under the lock, a renewal of the session before (under way here when the sign-in ended) has
    // stored its answer as that session's: this sign-in's user is stored last, as this one's. The
    // record goes first, and the write takes its turn after an adoption's under way: that adoption
    // gives way (`SessionSharing.adopt`), and a later one finds the record naming this session.
    this.core.signIns += 1;
    await this.core.withNamedLock('renew', () =>
      this.core.userStorage.storeInTurn(async () => {
        // The code exchange was a token request: the first renewal waits the floor of rule 5 too.
        await this.core.bookSession(session, user, Date.now());
        this.core.session = session;
        await this.core.userStorage.storeUser(user, session);
      }),
    );
    // One session a client: the key pairs of sessions before this one bind nothing any tab keeps.
    await this.core.presenter.forgetKeys((other) => other !== session);
    this.core.signedIn(user);
    this.core.parts.sharing.announce('signed-in', user);
  }
}
