import { ErrorResponse } from 'oidc-client-ts';
import type { DPoPState, UserManager, UserManagerSettings } from 'oidc-client-ts';
import type { DPoP } from './DPoP';

/** oidc-client-ts's DPoP key store, which it reads and writes under the client id. */
export type KeyStore = NonNullable<UserManagerSettings['dpop']>['store'];

/**
 * Turns on oidc-client-ts's proofs for `manager`'s token requests, and `proofs` for its userinfo
 * requests with a bound token. The manager exists before the provider is known, and
 * oidc-client-ts reads the setting at each request: from the manager's settings (`dpopProof`) and
 * from those of the `OidcClient` inside it (code exchange, refresh).
 */
export function enableProofs(
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
      process.env.NODE_ENV !== 'production'
        ? 'oidc-kit: this version of oidc-client-ts cannot be given DPoP after it was created; use oidc-client-ts 3.5.'
        : 'oidc-kit: DPoP needs oidc-client-ts 3.5',
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
