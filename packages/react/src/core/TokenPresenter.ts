import type { DPoP } from './DPoP';
import type { AuthHeadersOptions } from './clientOptions';
import { authError } from './errors';
import type { SessionCore } from './SessionCore';

/**
 * How this tab's tokens are presented: `Bearer`, or for DPoP-bound tokens `DPoP` with a proof
 * (the `DPoP` chunk, loaded only when needed), and whether token requests carry proofs; the
 * lifetime of the sessions' DPoP keys. The authenticated fetch and `getAuthHeaders` send through it.
 */
export class TokenPresenter {
  private dpopDecided: Promise<DPoP | null> | undefined;

  private dpopOn: Promise<DPoP> | undefined;

  /** The token a renewal after a 401 gave, until an API first answers a request sent with it. */
  private renewedFor401: string | undefined;

  /** A token an API refused (401) the first time it was sent, fresh from a renewal after a 401. */
  private refusedFresh: string | undefined;

  constructor(private readonly core: SessionCore) {}

  /** Whether this tab's session has DPoP-bound tokens (`token_type` DPoP). */
  get bound(): boolean {
    return /^dpop$/i.test(this.core.snapshot.user?.token_type ?? '');
  }

  /**
   * DPoP for the next token request, or null: on for a session whose tokens are bound (whatever
   * the config or discovery say now); else as `dpop` says, `'auto'` and `true` asking the
   * provider's discovery and the browser's IndexedDB once (`true` without DPoP there:
   * `config_invalid`). A failure is thrown, and the next call asks again.
   */
  dpop(): Promise<DPoP | null> {
    if (this.bound) return this.proofs();
    if (this.core.authConfig.dpop === false) return Promise.resolve(null);
    this.dpopDecided ??= import('./DPoP')
      .then(({ DPoP }) => DPoP.missing(this.core))
      .then((missing) => {
        if (missing === null) return this.proofs();
        if (this.core.authConfig.dpop === true) {
          throw authError(
            'config_invalid',
            process.env.NODE_ENV !== 'production' && [
              missing === 'provider'
                ? `oidc-kit config: \`dpop\` is true, but ${this.core.authConfig.oidc.authority} does not advertise DPoP (ES256 in dpop_signing_alg_values_supported). Enable it at the provider, or use dpop: 'auto'.`
                : "oidc-kit config: `dpop` is true, but this browser's IndexedDB, where the key is kept, is missing or does not open (a private window?). Use dpop: 'auto' to go on without DPoP there.",
              'Nobody was signed in.',
            ],
            { field: 'dpop' },
          );
        }
        return null;
      })
      .catch((error: unknown) => {
        this.dpopDecided = undefined;
        throw error;
      });
    return this.dpopDecided;
  }

  /** Whether token requests carry proofs (DPoP's chunk is loaded and on). */
  get proving(): boolean {
    return this.dpopOn !== undefined;
  }

  /** DPoP's chunk, with oidc-client-ts's proofs on for every later token request. */
  private proofs(): Promise<DPoP> {
    this.dpopOn ??= import('./DPoP')
      .then(({ DPoP }) => DPoP.enable(this.core))
      .catch((error: unknown) => {
        this.dpopOn = undefined;
        throw error;
      });
    return this.dpopOn;
  }

  /**
   * DPoP headers for a request with `token`. A bound session whose key pair is gone (site data
   * cleared) is over: ended everywhere, `session_expired`; nothing is sent without a proof.
   */
  private async proofHeaders(
    dpop: DPoP,
    url: string,
    method: string,
    token: string,
    nonce?: string,
  ): Promise<Record<string, string>> {
    const headers = await dpop.headers(url, method, token, nonce);
    if (headers !== null) return headers;
    const error = authError(
      'session_expired',
      process.env.NODE_ENV !== 'production' && [
        "This session's DPoP key is gone (site data cleared?): its tokens are useless.",
        'The session was ended in every tab.',
      ],
    );
    // A session that ended meanwhile (its key deleted with it) is not ended again.
    if (this.core.snapshot.user?.access_token === token) await this.core.endSession(error, true);
    throw error;
  }

  /**
   * `AuthClient.getAuthHeaders`: the token renewed if it expires, then the headers that carry it
   * on a request to `url`: `Bearer`, or for DPoP-bound tokens `DPoP` with a proof for this request
   * (with `options.nonce`, else the origin's latest).
   */
  async getAuthHeaders(
    url: string,
    options: AuthHeadersOptions = {},
  ): Promise<Record<string, string> | null> {
    const token = await this.core.renewal.getAccessToken();
    if (token === null) return null;
    if (!this.bound) return { Authorization: `Bearer ${token}` };
    // Where fetch sends it: relative to the document's base URL (`<base href>`).
    const target = new URL(url, globalThis.document?.baseURI).href;
    const method = options.method ?? 'GET';
    return this.proofHeaders(await this.proofs(), target, method, token, options.nonce);
  }

  /**
   * The authenticated fetch's way to send `request` with `token` (see `TokenSource`). Whether
   * the token is bound is read once: a retry goes with a proof too, or not at all.
   */
  async sendWithToken(
    request: Request,
    token: string,
    send: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    let response: Response;
    if (this.bound) {
      const dpop = await this.proofs();
      response = await dpop.send(request, send, (sent) =>
        this.proofHeaders(dpop, sent.url, sent.method, token),
      );
    } else {
      request.headers.set('Authorization', `Bearer ${token}`);
      response = await send(request);
    }
    if (token === this.renewedFor401) {
      this.renewedFor401 = undefined;
      if (response.status === 401 && !this.refusesProof(response)) this.refusedFresh = token;
    }
    return response;
  }

  /**
   * After a 401 from an API for `rejected`: a newer token (see `Renewal`), or null when the 401
   * refuses the DPoP proof (asks for a nonce again, or finds the proof invalid), which is no fault
   * of the token: a renewal would spend a refresh token for nothing; null too for a token that
   * a renewal after a 401 gave and the API refused the first time (it refuses fresh tokens).
   */
  async renewAfterUnauthorized(rejected: string, response?: Response): Promise<string | null> {
    // A token refused as soon as it was renewed: renewing again would not help (rule 5).
    if ((response !== undefined && this.refusesProof(response)) || rejected === this.refusedFresh)
      return null;
    const renewed = await this.core.renewal.renewAfterUnauthorized(rejected);
    if (renewed !== null && renewed !== rejected) this.renewedFor401 = renewed;
    return renewed;
  }

  private refusesProof(response: Response): boolean {
    return this.refuses(response, 'use_dpop_nonce|invalid_dpop_proof');
  }

  /**
   * Whether `response` is a resource server's 401 asking for its DPoP nonce
   * (`WWW-Authenticate: DPoP error="use_dpop_nonce"`, RFC 9449 §9). The `DPoP` chunk asks too.
   */
  asksForNonce(response: Response): boolean {
    return this.refuses(response, 'use_dpop_nonce');
  }

  /** Whether `response` is a 401 whose challenge names one of the `errors` (a regex alternation). */
  private refuses(response: Response, errors: string): boolean {
    return (
      response.status === 401 &&
      new RegExp(`\\berror\\s*=\\s*"?(?:${errors})\\b`, 'i').test(
        response.headers.get('WWW-Authenticate') ?? '',
      )
    );
  }

  /** Deletes the DPoP keys of the sessions `drop` names as over; nothing when DPoP is off. */
  async forgetKeys(drop: (session: string) => boolean): Promise<void> {
    if (this.core.authConfig.dpop === false && !this.bound) return;
    // Best effort, and never for longer than a request may take: a key left behind binds tokens
    // no tab holds any more; a sign-out must not wait on a chunk or a stuck IndexedDB.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      import('./DPoP')
        .then(({ DPoP }) => DPoP.forgetKeys(this.core, drop))
        .catch(() => undefined)
        .finally(() => clearTimeout(timer)),
      new Promise((resolve) => (timer = setTimeout(resolve, this.core.authConfig.timeout))),
    ]);
  }
}
