import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { AuthClient } from './core/AuthClient';
import type { AuthClientConfig } from './core/clientConfig';
import type { AuthClientEnvironment } from './core/clientOptions';
import { createAuthSnapshot } from './core/authState';
import { inactiveIdle } from './core/idleSnapshot';
import type { AuthError } from './core/errors';
import { isAuthError } from './core/errors';
import { AuthContext } from './authContext';
import { reportRejection } from './reportRejection';
import type { AuthContextValue } from './authContext';
import { ConfigErrorPanel } from './ConfigErrorPanel';
import { useConfigChangeWarning } from './warnConfigChange';
import { useNewClientWarning } from './warnNewClient';
import { useIdleUnseenWarning } from './warnIdleUnseen';
import { useNestedProviderWarning } from './warnNestedProvider';

/** Props of {@link AuthProvider}: a configuration, or a client you created. */
export type AuthProviderProps = {
  children?: ReactNode;
} & (
  | {
      /** oidc-client-ts settings and oidc-kit's options; read once, when the provider mounts. */
      config: AuthClientConfig;
      client?: never;
      /**
       * Moves the app to the return path after sign-in (and to the signed-out page after an idle
       * sign-out), e.g. your router's `navigate(path, { replace: true })`. Default:
       * `history.replaceState` plus a `popstate` event. Read once, with `config`: pass a function
       * that stays valid (one that calls your router), not one over state that changes.
       */
      navigate?: (path: string) => void;
    }
  | {
      /**
       * A ready client, e.g. an `AuthClient` created outside React to use in route loaders, or
       * any engine that implements `AuthContextValue`. Another client passed later replaces it
       * (the old one is stopped, the new one started).
       */
      client: AuthContextValue;
      config?: never;
      /** A client you created navigates as its own environment says: `new AuthClient(config, { navigate })`. */
      navigate?: never;
    }
);

/** A stand-in client that reports a configuration error and does nothing else. */
function failedClient(error: AuthError): AuthContextValue {
  const snapshot = createAuthSnapshot('error', null, error);
  // As the engine's actions: signIn and signOut end in the snapshot's error (already this one),
  // renew rejects, since its caller awaits a value.
  const settle = () => Promise.resolve();
  const none = () => Promise.resolve(null);
  const nothing = () => undefined;
  const subscribe = () => nothing;
  return {
    start: settle,
    stop: nothing,
    getSnapshot: () => snapshot,
    subscribe,
    signIn: settle,
    signOut: settle,
    renew: () => Promise.reject(error),
    getAccessToken: none,
    getAuthHeaders: none,
    dismissError: nothing,
    readRoles: () => [],
    // No token to send: the plain fetch.
    fetch: (input, init) => globalThis.fetch(input, init),
    idle: { getSnapshot: () => inactiveIdle, subscribe, stay: nothing },
  };
}

/** The provider's own client, and the config's error when there is one. */
function createClient(props: AuthProviderProps): [AuthContextValue, AuthError | null] {
  // A client still null (created in an effect) is none: the config's error, not a missing provider.
  if (props.client != null) return [props.client, null];
  const environment: AuthClientEnvironment = props.navigate ? { navigate: props.navigate } : {};
  try {
    return [new AuthClient(props.config, environment), null];
  } catch (error) {
    if (!isAuthError(error, 'config_invalid')) throw error;
    // Loud in development (a panel in place of the app), the error state in production; the
    // console in both, so that a deploy with a wrong setting does not fail without a trace.
    console.error(error);
    return [failedClient(error), error];
  }
}

/**
 * Makes the auth state available to the hooks and components below it, and restores the session
 * (or processes the sign-in callback) when it mounts.
 *
 * @example
 * <AuthProvider config={{ authority: 'https://login.example.com', client_id: 'web', redirect_uri: `${location.origin}/callback` }}>
 *   <App />
 * </AuthProvider>
 */
export function AuthProvider(props: AuthProviderProps): ReactNode {
  const [[ownClient, configError]] = useState(() => createClient(props));
  // A config is read once; a client you hold is followed when you pass another.
  const client = props.client ?? ownClient;

  useEffect(() => {
    // Counted (see `AuthContextValue.start`): StrictMode's unmount and remount leave it running; a
    // real unmount stops it at once.
    void reportRejection(client.start());
    return () => client.stop();
  }, [client]);

  // The build's NODE_ENV never changes between renders, so the hook is called on every render
  // or on none; production bundles drop it.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  if (process.env.NODE_ENV !== 'production') useConfigChangeWarning(props.config);
  // eslint-disable-next-line react-hooks/rules-of-hooks
  if (process.env.NODE_ENV !== 'production') useNewClientWarning(props.client);
  // eslint-disable-next-line react-hooks/rules-of-hooks
  if (process.env.NODE_ENV !== 'production') useIdleUnseenWarning(client);
  // eslint-disable-next-line react-hooks/rules-of-hooks
  if (process.env.NODE_ENV !== 'production') useNestedProviderWarning(client);

  // Only while no client is given: one given later (created in an effect) is followed, as in
  // production.
  if (process.env.NODE_ENV !== 'production' && configError !== null && props.client == null) {
    return <ConfigErrorPanel error={configError} />;
  }
  return <AuthContext.Provider value={client}>{props.children}</AuthContext.Provider>;
}
