import { InMemoryWebStorage } from 'oidc-client-ts';
import { expect, vi } from 'vitest';
import { AuthClient } from '../../src/core/AuthClient';
import type { AuthClientEnvironment } from '../../src/core/clientOptions';
import type { AuthOptions } from '../../src/core/configTypes';
import { SessionSharing } from '../../src/core/SessionSharing';
import type { ChannelLike } from '../../src/core/tabSync';
import { FakeProvider } from './FakeProvider';
import type { FakeProviderOptions, FakeUser } from './FakeProvider';

export const appOrigin = 'http://localhost:3000';
let harnesses = 0;

/**
 * A fake provider plus everything an AuthClient needs from the browser, with several "tabs":
 * each client gets its own token storage (sessionStorage is per tab) and all share localStorage
 * and one BroadcastChannel name.
 */
export function createHarness(providerOptions: FakeProviderOptions = {}) {
  const provider = new FakeProvider(providerOptions);
  const redirects: string[] = [];
  const navigations: string[] = [];
  const silentAuthorizations: string[] = [];
  const shared = new InMemoryWebStorage() as unknown as Storage;
  const channelName = `test-${process.pid}-${(harnesses += 1)}-${Math.random()}`;
  const clients: AuthClient[] = [];
  const channels: ChannelLike[] = [];
  /** What each tab took from its channel, in order (see `caughtUp`). */
  const heardBy = new WeakMap<AuthClient, unknown[]>();
  // Every tab's handling of a message, as a promise: `caughtUp` waits for them to settle.
  const handling = vi.isMockFunction(SessionSharing.prototype.onTabMessage)
    ? vi.mocked(SessionSharing.prototype.onTabMessage)
    : vi.spyOn(SessionSharing.prototype, 'onTabMessage');
  vi.stubGlobal('fetch', provider.fetch);
  sessionStorage.clear();
  localStorage.clear();
  history.replaceState(null, '', '/');

  function createClient(
    options: {
      storage?: Storage;
      config?: AuthOptions & Record<string, unknown>;
      environment?: AuthClientEnvironment;
    } = {},
  ): AuthClient {
    const { createChannel, heard } = hearing(
      options.environment?.createChannel ??
        ((name) => {
          const channel = new BroadcastChannel(`${channelName}:${name}`) as unknown as ChannelLike;
          channels.push(channel);
          return channel;
        }),
    );
    const client = new AuthClient(
      {
        authority: provider.issuer,
        client_id: 'app',
        redirect_uri: `${appOrigin}/callback`,
        post_logout_redirect_uri: `${appOrigin}/signed-out`,
        apiOrigins: [provider.apiOrigin],
        ...options.config,
      },
      {
        storage: options.storage ?? (new InMemoryWebStorage() as unknown as Storage),
        sharedStorage: shared,
        locks: null,
        redirect: (url) => redirects.push(url),
        // A hidden frame at the provider: `prompt=none` answers at once, from the provider session.
        silentFrame: async (url) => {
          silentAuthorizations.push(url);
          if (provider.options.unreachable === true) throw new TypeError('Failed to fetch');
          return provider.authorize(url);
        },
        navigate: (path) => navigations.push(path),
        // How long a new tab waits for another tab's session: an answer ends the wait at once, so
        // only a tab that gets none pays it; on a loaded 2-core machine an answer can take seconds.
        tabSessionWait: 5000,
        ...options.environment,
        createChannel,
      },
    );
    heardBy.set(client, heard);
    clients.push(client);
    return client;
  }

  /**
   * `createChannel` for a tab, keeping what the tab takes from its channel (not what a deaf one
   * drops). A tab made by hand calls `heardBy(tab)` to be known to `caughtUp`.
   */
  function hearing(createChannel: (name: string) => ChannelLike | null) {
    const heard: unknown[] = [];
    return {
      heard,
      heardBy: (client: AuthClient) => heardBy.set(client, heard),
      createChannel: (name: string): ChannelLike | null => {
        const channel = createChannel(name);
        if (channel === null) return null;
        return {
          postMessage: (message) => channel.postMessage(message),
          addEventListener: (type, listener) =>
            channel.addEventListener(type, (event) => {
              listener(event);
              heard.push(event.data);
            }),
          close: () => channel.close(),
        };
      },
    };
  }

  /**
   * Resolves once `client`'s tab has taken every message sent to the tabs so far and every tab has
   * handled what it took to the end (an adoption checked and stored, or refused). Only then does
   * "the tab ignored it" hold: messages arrive in the order sent, so a marker sent now comes last.
   */
  async function caughtUp(client: AuthClient): Promise<void> {
    const heard = heardBy.get(client);
    if (heard === undefined) throw new Error('caughtUp: not a tab of this harness');
    const marker = { type: 'test-marker', id: Math.random() };
    rawChannel().postMessage(marker);
    await vi.waitFor(() => expect(heard).toContainEqual(marker), { timeout: 5000 });
    // A handling may start another (a renewal's answer): wait until none is left under way.
    for (let count = -1; count !== handling.mock.results.length;) {
      count = handling.mock.results.length;
      await Promise.allSettled(handling.mock.results.map((result) => result.value));
    }
  }

  async function nextRedirect(): Promise<string> {
    const seen = redirects.length;
    await vi.waitFor(
      () => {
        if (redirects.length <= seen) throw new Error('no redirect yet');
      },
      { timeout: 5000 },
    );
    return redirects[redirects.length - 1] as string;
  }

  /**
   * Starts sign-in on `client`, answers it at the provider (`error`: refused) and puts the callback
   * in the address, as the landing page finds it; its URL.
   */
  async function answerSignIn(
    client: AuthClient,
    options: { returnTo?: string | undefined; user?: FakeUser | undefined; error?: string } = {},
  ): Promise<string> {
    const waiting = nextRedirect();
    void client.signIn({ returnTo: options.returnTo });
    const callbackUrl = provider.authorize(await waiting, options.user, options.error);
    history.replaceState(null, '', callbackUrl);
    return callbackUrl;
  }

  /**
   * A sign-in begun by an earlier page load (a client of its own) and answered at the provider:
   * the page is now on its callback, with no client of this load yet. The callback's URL.
   */
  function landOnCallback(
    options: { returnTo?: string; user?: FakeUser; error?: string } = {},
  ): Promise<string> {
    return answerSignIn(createClient(), options);
  }

  /** Starts sign-in on `client`, answers at the provider, and lands a new page on the callback. */
  async function signIn(
    client: AuthClient,
    options: {
      returnTo?: string;
      user?: FakeUser;
      storage?: Storage;
      config?: AuthOptions & Record<string, unknown>;
      /** The landing page's environment, over the harness's. */
      environment?: AuthClientEnvironment;
    } = {},
  ): Promise<{ client: AuthClient; callbackUrl: string }> {
    const callbackUrl = await answerSignIn(client, options);
    const landed = createClient({
      storage: options.storage,
      config: options.config,
      environment: options.environment,
    });
    await landed.start();
    return { client: landed, callbackUrl };
  }

  /**
   * A tab's storage with a signed-in session in it, as an earlier page load left it, and that
   * session's access token: what the next load of the page restores.
   */
  async function storedSession(): Promise<{ storage: Storage; token: string | undefined }> {
    const storage = newStorage();
    const { client } = await signIn(createClient(), { storage });
    const token = client.getSnapshot().user?.access_token;
    client.dispose();
    return { storage, token };
  }

  /** Every message the tabs send each other from now on, as sent. */
  function recordMessages(): unknown[] {
    const messages: unknown[] = [];
    const channel = new BroadcastChannel(`${channelName}:oidc-kit:${provider.issuer}:app`);
    channel.addEventListener('message', (event) => messages.push(event.data));
    channels.push(channel as unknown as ChannelLike);
    return messages;
  }

  /**
   * A channel for `createChannel` that can be made deaf: while `deaf()` is true, the tab hears
   * nothing (a frozen tab, or one whose messages are still queued). `deaf` gets each message, so a
   * test can wait until the one it means has gone by unheard.
   */
  function deafenableChannel(deaf: (message: unknown) => boolean) {
    return (name: string): ChannelLike => {
      const channel = new BroadcastChannel(`${channelName}:${name}`);
      channels.push(channel as unknown as ChannelLike);
      return {
        postMessage: (message) => channel.postMessage(message),
        addEventListener: (_type, listener) =>
          channel.addEventListener('message', (event) => {
            if (!deaf(event.data)) listener(event);
          }),
        close: () => channel.close(),
      };
    };
  }

  /** A raw end of the tabs' channel, to play a tab (or an attacker) by hand. */
  function rawChannel(): BroadcastChannel {
    const channel = new BroadcastChannel(`${channelName}:oidc-kit:${provider.issuer}:app`);
    channels.push(channel as unknown as ChannelLike);
    return channel;
  }

  function dispose(): void {
    for (const client of clients) client.dispose();
    for (const channel of channels) channel.close();
  }

  return {
    provider,
    redirects,
    navigations,
    silentAuthorizations,
    shared,
    createClient,
    nextRedirect,
    landOnCallback,
    signIn,
    storedSession,
    recordMessages,
    rawChannel,
    deafenableChannel,
    hearing,
    caughtUp,
    dispose,
  };
}

export type Harness = ReturnType<typeof createHarness>;

/** The status sequence a client goes through, starting with its current one. */
export function recordStatuses(client: AuthClient): string[] {
  const statuses = [client.getSnapshot().status as string];
  client.subscribe(() => statuses.push(client.getSnapshot().status));
  return statuses;
}

/** Whether any auth parameter is left in the address bar. */
export function addressHasAuthParams(): boolean {
  const params = new URL(location.href).searchParams;
  return ['code', 'state', 'iss', 'session_state', 'error'].some((name) => params.has(name));
}

/** A fresh in-memory `Storage`, as one tab's sessionStorage. */
export function newStorage(): Storage {
  return new InMemoryWebStorage() as unknown as Storage;
}

/** A copy of a storage: a tab that keeps what it had while it was away. */
export function copyStorage(storage: Storage): Storage {
  const copy = newStorage();
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index) as string;
    copy.setItem(key, storage.getItem(key) as string);
  }
  return copy;
}

/** Every value in a storage, joined: to search for a token. */
export function storageText(storage: Storage): string {
  const values: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index) as string;
    values.push(key, storage.getItem(key) as string);
  }
  return values.join('\n');
}

/** The stored user entries in a storage. */
export function storedUsers(storage: Storage): string[] {
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key?.includes('user:')) keys.push(key);
  }
  return keys;
}

/**
 * Makes `window.open` return a stand-in popup window; `authorizeUrl()` waits for sign-in to send
 * it to the provider. Set `popup.closed = true` to close it.
 */
export function stubPopup() {
  const popup = {
    closed: false,
    focus: () => undefined,
    close: vi.fn(),
    location: { replace: vi.fn() },
  };
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  async function authorizeUrl(): Promise<string> {
    await vi.waitFor(() => expect(popup.location.replace).toHaveBeenCalled());
    return popup.location.replace.mock.calls[0]?.[0] as string;
  }
  return { popup, authorizeUrl };
}

/**
 * Makes this window the popup, at `callbackUrl`, with a stand-in opener: what the popup hands
 * over is recorded, and `deliver()` passes it to this window, where the opening client listens.
 */
export function landInPopup(callbackUrl: string) {
  const opener = { postMessage: vi.fn() };
  vi.stubGlobal('opener', opener);
  history.replaceState(null, '', callbackUrl);
  return {
    opener,
    handedOver: () => opener.postMessage.mock.calls.map(([data]) => (data as { url: string }).url),
    deliver: () => {
      for (const [data] of opener.postMessage.mock.calls) {
        window.dispatchEvent(new MessageEvent('message', { data, origin: location.origin }));
      }
    },
  };
}
