import { IndexedDbDPoPStore } from 'oidc-client-ts';
import type { DPoPState, User } from 'oidc-client-ts';
import { enableProofs } from './dpopRequests';
import type { KeyStore } from './dpopRequests';
import type { SessionCore } from './SessionCore';

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
    const metadata = (await core.manager.metadataService.getMetadata()) as {
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
          timer = setTimeout(resolve, core.authConfig.timeout, 'indexeddb');
        }),
      ]).finally(() => clearTimeout(timer));
      probed.set(indexedDB, missing);
    }
    return missing;
  }

  /** Turns on oidc-client-ts's proofs for every token request of this client from now on. */
  static enable(core: SessionCore): DPoP {
    const dpop = new DPoP(core);
    enableProofs(core.manager, { store: sessionKeyStore(core) }, dpop);
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
    const proof = await this.core.manager.dpopProof(
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
      return present ? [core.authConfig.oidc.client_id] : [];
    },
  };
}
