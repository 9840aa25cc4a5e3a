import { ErrorResponse, IndexedDbDPoPStore } from 'oidc-client-ts';
import type { DPoPState, User, UserManager, UserManagerSettings } from 'oidc-client-ts';
import type { SessionCore } from './SessionCore';

/** oidc-client-ts's DPoP key store, which it reads and writes under the client id. */
type KeyStore = NonNullable<UserManagerSettings['dpop']>['store'];

/** The one algorithm oidc-client-ts signs proofs with (a P-256 key). */
const proofAlg = 'ES256';

/** Whether the key store opens in an `indexedDB` (null where turned off), asked once a page. */
const probed = new Map<IDBFactory | null, Promise<'indexeddb' | null>>();

/**
 * DPoP (RFC 9449), a chunk of its own loaded only when `dpop` is set: whether the provider takes
 * it, a non-extractable key pair per session in IndexedDB (shared by the session's tabs, deleted
 * when the session ends), proofs for API requests with the resource server's nonce. oidc-client-ts
 * adds the proofs to token requests once `enable` has set its `dpop` setting. It imports nothing of
 * the engine at run time, so that bundlers split no chunk between the two.
 */
export class DPoP {
  /** The latest `DPoP-Nonce` of each resource origin (RFC 9449 §9). */
  private readonly nonces = new Map<string, string>();

  private constructor(private readonly core: SessionCore) {}

  /**
   * Why this client cannot use DPoP here, or null when it can: the provider must advertise ES256
   * in `dpop_signing_alg_values_supported`, and the browser must have an IndexedDB that opens for
   * the key.
   */
  static async missing(core: SessionCore): Promise<'indexeddb' | 'provider' | null> {
    if (typeof indexedDB === 'undefined') return 'indexeddb';
    const metadata = (await core.userManager.metadataService.getMetadata()) as {
      dpop_signing_alg_values_supported?: unknown;
    };
    const algs = metadata.dpop_signing_alg_values_supported;
    if (!Array.isArray(algs) || !algs.includes(proofAlg)) return 'provider';
    // It may be null (turned off), or there and not open, at once (SecurityError) or on the
    // request (InvalidStateError in older Firefox private windows, UnknownError with a corrupt
    // profile): found out here, not at the code exchange, after the provider was visited.
    // One that does not answer within the timeout (another page's upgrade holds it) counts as
    // not open: the sign-in would wait on it for as long.
    let missing = probed.get(indexedDB);
    if (missing === undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      missing = Promise.race([
        new IndexedDbDPoPStore().getAllKeys().then(
          () => null,
          () => 'indexeddb' as const,
        ),
        new Promise<'indexeddb'>((resolve) => {
          timer = setTimeout(resolve, core.config.timeout, 'indexeddb');
        }),
      ]).finally(() => clearTimeout(timer));
      probed.set(indexedDB, missing);
    }
    return missing;
  }

  /** Turns on oidc-client-ts's proofs for every token request of this client from now on. */
  static enable(core: SessionCore): DPoP {
    const dpop = new DPoP(core);
    enableProofs(core.userManager, { store: sessionKeyStore(core) }, dpop);
    return dpop;
  }

  /**
   * Deletes this client's DPoP keys whose session `drop` says is over (the key pairs are shared by
   * the tabs, so one tab deletes them for all).
   */
  static async forgetKeys(core: SessionCore, drop: (session: string) => boolean): Promise<void> {
    // None to delete where the key store does not open (see `missing`).
    if (await probed.get(indexedDB)) return;
    const prefix = keyName(core, '');
    const store = new IndexedDbDPoPStore();
    for (const key of await store.getAllKeys()) {
      const session = key.slice(prefix.length);
      // Another client's id may extend this one's with a colon: session ids have none.
      if (key.startsWith(prefix) && !session.includes(':') && drop(session))
        await store.remove(key);
    }
  }

  /** Whether the key pair of this tab's session is there (site data may have been cleared). */
  async hasKey(): Promise<boolean> {
    return (await sessionKeyStore(this.core).getAllKeys()).length > 0;
  }

  /**
   * `Authorization: DPoP <token>` and a `DPoP` proof for a `method` request to `url` (`htu` without
   * query or fragment, `ath` the token's hash), with `nonce`, else the origin's latest one; null
   * when the session's key pair is gone.
   */
  async headers(
    url: string,
    method: string,
    token: string,
    nonce?: string,
  ): Promise<Record<string, string> | null> {
    const target = new URL(url);
    if (nonce !== undefined) this.nonces.set(target.origin, nonce);
    const proof = await this.core.userManager.dpopProof(
      target.origin + target.pathname,
      // dpopProof reads the access token only (for `ath`).
      { access_token: token } as User,
      // As fetch and XMLHttpRequest send it ("normalize a method", Fetch standard): the six
      // standard methods upper-cased, any other as written, for htm must equal it (RFC 9449 §4.3).
      /^(delete|get|head|options|post|put)$/i.test(method) ? method.toUpperCase() : method,
      this.nonces.get(target.origin),
    );
    return proof === undefined ? null : { Authorization: `DPoP ${token}`, DPoP: proof };
  }

  /**
   * Sends `request` with the headers `sign` makes for it; when the resource server asks for its
   * nonce (401 `use_dpop_nonce` with a `DPoP-Nonce`, RFC 9449 §9), once more with it. A nonce the
   * server sends on any answer is kept for the origin's next requests. A redirect is not
   * followed: the proof is for this URL only, and would go to the next one with the token.
   */
  async send(
    asked: Request,
    send: (request: Request) => Promise<Response>,
    sign: (request: Request) => Promise<Record<string, string>>,
  ): Promise<Response> {
    const request = new Request(asked, {
      redirect: asked.redirect === 'follow' ? 'manual' : asked.redirect,
      // A new init resets these (Fetch standard): the app's referrer settings go on as given.
      referrer: asked.referrer,
      referrerPolicy: asked.referrerPolicy,
    });
    const again = request.clone();
    const origin = new URL(request.url).origin;
    const attempt = async (sent: Request) => {
      for (const [name, value] of Object.entries(await sign(sent))) sent.headers.set(name, value);
      const answer = await send(sent);
      const nonce = answer.headers.get('DPoP-Nonce');
      if (nonce !== null) this.nonces.set(origin, nonce);
      return answer;
    };
    const response = await attempt(request);
    if (
      process.env.NODE_ENV !== 'production' &&
      (response.type === 'opaqueredirect' || [301, 302, 303, 307, 308].includes(response.status))
    ) {
      console.warn(
        `oidc-kit: ${request.url} answered with a redirect, which a DPoP-bound request does not follow (its proof is for that URL only). Call the final URL.`,
      );
    }
    if (response.headers.get('DPoP-Nonce') === null || !this.core.presenter.asksForNonce(response))
      return response;
    await response.body?.cancel();
    return attempt(again);
  }
}

/**
 * Turns on oidc-client-ts's proofs for `manager`'s token requests, and `proofs` for its userinfo
 * requests with a bound token. The manager exists before the provider is known, and
 * oidc-client-ts reads the setting at each request: from the manager's settings (`dpopProof`) and
 * from those of the `OidcClient` inside it (code exchange, refresh).
 */
function enableProofs(
  manager: UserManager,
  dpop: NonNullable<UserManagerSettings['dpop']>,
  proofs: DPoP,
): void {
  const inner = (manager as unknown as { _client?: OidcClientInside })._client;
  // The token endpoint's two clients: the refresh's, and the code exchange's.
  const posting = [inner?._tokenClient, inner?._validator?._tokenClient].map(
    (client) => client?._jsonService,
  );
  const userinfo = inner?._validator?._userInfoService?._jsonService;
  const prove = inner?.getDpopProof;
  const tokenEndpoint = inner?.metadataService?.getTokenEndpoint?.bind(inner.metadataService);
  if (
    inner?.settings === undefined ||
    prove === undefined ||
    tokenEndpoint === undefined ||
    posting.some(
      (service) => service?.postForm === undefined || service.fetchWithTimeout === undefined,
    ) ||
    userinfo?.fetchWithTimeout === undefined
  ) {
    // Without it token requests would go without proofs, and the tokens unbound, unnoticed.
    throw new Error(
      'oidc-kit: this version of oidc-client-ts cannot be given DPoP after it was created; use oidc-client-ts 3.5.',
    );
  }
  for (const settings of [manager.settings, inner.settings]) Object.assign(settings, { dpop });
  // oidc-client-ts names the token endpoint in its proofs as discovery gives it, query and all,
  // where `htu` is the URI without query and fragment (RFC 9449 §4.2).
  const proofTarget = {
    settings: inner.settings,
    metadataService: {
      getTokenEndpoint: async () => {
        const url = new URL((await tokenEndpoint(false)) as string);
        return url.origin + url.pathname;
      },
    },
  };
  inner.getDpopProof = (store, nonce) => prove.call(proofTarget, store, nonce);
  // Bound access tokens not yet sent to userinfo (with `loadUserInfo`, which follows their answer).
  // An exchange that fails before userinfo leaves its token here: only the latest few are kept.
  const bound = new Set<string>();
  for (const service of posting as JsonServiceInside[]) {
    const fetchTimed = service.fetchWithTimeout.bind(service);
    // oidc-client-ts reads the token endpoint's `DPoP-Nonce` from refusals only, yet the nonce of
    // any answer, a success too, is the one the next token request must carry (RFC 9449 §8.2):
    // else that request is refused for it and sent again (a refresh token presented twice).
    service.fetchWithTimeout = async (url, init) => {
      const response = await fetchTimed(url, init);
      const nonce = response.headers.get('DPoP-Nonce');
      if (nonce !== null) {
        // Best effort: the answer (a refresh token may be spent) goes on whatever the store does.
        await keepNonce(dpop.store, manager.settings.client_id, nonce).catch(() => undefined);
      }
      return response;
    };
    const postForm = service.postForm.bind(service);
    service.postForm = (url, args) =>
      postForm(url, args).then(
        (answer) => {
          const { access_token: token, token_type: type } = answer as {
            access_token: string;
            token_type: string;
          };
          if (manager.settings.loadUserInfo && /^dpop$/i.test(type)) {
            bound.add(token);
            if (bound.size > 4) bound.delete(bound.values().next().value as string);
          }
          return answer;
        },
        (error: unknown) => {
          throw onlyNonceRequests(error, args.body);
        },
      );
  }
  // oidc-client-ts sends every token to userinfo as Bearer, which a protected resource refuses for
  // a bound one (RFC 9449 §7.1): a bound token goes with the DPoP scheme and a proof.
  const send = userinfo.fetchWithTimeout.bind(userinfo);
  userinfo.fetchWithTimeout = (url, init) => {
    const token = init.headers?.Authorization?.slice('Bearer '.length) ?? '';
    if (!bound.delete(token)) return send(url, init);
    return proofs.send(
      new Request(url, init),
      (request) => send(request, { timeoutInSeconds: init.timeoutInSeconds }),
      async (request) => {
        const headers = await proofs.headers(request.url, request.method, token);
        if (headers === null) throw new Error('oidc-kit: no DPoP key for this session');
        return headers;
      },
    );
  };
}

interface JsonServiceInside {
  postForm(url: string, args: { body: URLSearchParams }): Promise<unknown>;
  fetchWithTimeout(
    input: RequestInfo,
    init: RequestInit & { headers?: Record<string, string>; timeoutInSeconds?: number },
  ): Promise<Response>;
}

interface OidcClientInside {
  settings?: object;
  getDpopProof?(store: KeyStore, nonce?: string): Promise<string>;
  metadataService?: { getTokenEndpoint?(optional: boolean): Promise<string | undefined> };
  _tokenClient?: { _jsonService?: JsonServiceInside };
  _validator?: {
    _tokenClient?: { _jsonService?: JsonServiceInside };
    _userInfoService?: { _jsonService?: JsonServiceInside };
  };
}

/**
 * Keeps the token endpoint's `nonce` where oidc-client-ts reads it for the next proof of a token
 * request, as it does itself after a `use_dpop_nonce` refusal: in the key's entry of the store.
 */
async function keepNonce(store: KeyStore, clientId: string, nonce: string): Promise<void> {
  const state = (await store.get(clientId)) as DPoPState | undefined;
  if (state !== undefined && state.nonce !== nonce) {
    state.nonce = nonce;
    await store.set(clientId, state);
  }
}

/**
 * oidc-client-ts takes any refusal of the token endpoint that carries a `DPoP-Nonce` header for a
 * request for that nonce, and sends the same code or refresh token again with it. Only
 * `use_dpop_nonce` asks for that (RFC 9449 §8): any other refusal (`invalid_grant`, a server error
 * after the token rotated) is given back as the refusal it is, and the token is not sent again.
 */
function onlyNonceRequests(error: unknown, form: URLSearchParams): unknown {
  if ((error as { name?: unknown } | null)?.name !== 'ErrorDPoPNonce') return error;
  // Its message is the answer's JSON body, as oidc-client-ts read it.
  const { message } = error as Error;
  const answer = JSON.parse(message) as { error?: unknown } | null;
  if (answer?.error === 'use_dpop_nonce') return error;
  return typeof answer?.error === 'string'
    ? new ErrorResponse(answer as { error: string }, form)
    : new Error(message);
}

/** Where the key pair of `session` is kept in IndexedDB. */
function keyName(core: SessionCore, session: string): string {
  return `${core.storageKey('dpop')}:${session}`;
}

/**
 * oidc-client-ts's key store, as seen by this tab: the key pair of the session whose user is
 * being stored (`storedSession`), so each session has its own, which its tabs share.
 */
function sessionKeyStore(core: SessionCore): KeyStore {
  const store = new IndexedDbDPoPStore();
  const current = () => {
    const session = core.storedSession();
    return session === null ? null : keyName(core, session);
  };
  return {
    get: async () => {
      const name = current();
      return (name === null ? undefined : await store.get(name)) as DPoPState;
    },
    set: async (_clientId, state) => {
      const name = current();
      // A key no session holds would bind tokens to a key that is then lost; and a session whose
      // tokens are bound to a key that is gone must not get another one in its place.
      const replaces =
        !core.freshSignIn &&
        core.presenter.bound &&
        !(await store.getAllKeys()).includes(name ?? '');
      if (name === null || replaces) throw new Error('oidc-kit: no DPoP key for this session');
      await store.set(name, state);
    },
    // oidc-client-ts removes the key when it removes the user; the engine deletes keys itself
    // when a session ends (`forgetKeys`), and by then this tab holds no session.
    remove: async () => {
      const name = current();
      return (name === null ? undefined : await store.remove(name)) as DPoPState;
    },
    getAllKeys: async () => {
      const name = current();
      const present = name !== null && (await store.getAllKeys()).includes(name);
      return present ? [core.config.oidc.client_id] : [];
    },
  };
}
