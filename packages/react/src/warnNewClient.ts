import { useEffect, useRef } from 'react';
import { changedSettings } from './warnConfigChange';

/** The OIDC settings of an `AuthClient` (its resolved `config.oidc`); none for other engines. */
export function settingsOf(client: object | undefined): Record<string, unknown> | undefined {
  return (client as { config?: { oidc?: Record<string, unknown> } } | undefined)?.config?.oidc;
}

/**
 * Development builds only (`AuthProvider` calls it under a `NODE_ENV` check): warns once when the
 * `client` prop is replaced by another client with the same settings, i.e. a client created while
 * rendering. Each one restores the session anew, and with `storage: 'memory'` loses it. A client
 * with other settings (another tenant) is a switch, which the provider follows in silence. A hot
 * reload of the module that creates the client does the same, and no library code can tell it
 * apart: the message names it.
 */
export function useNewClientWarning(client: object | undefined): void {
  const previous = useRef(client);
  const warned = useRef(false);
  useEffect(() => {
    const before = settingsOf(previous.current);
    previous.current = client;
    const now = settingsOf(client);
    if (warned.current || before === undefined || now === undefined || before === now) return;
    if (changedSettings(before, now).length > 0) return;
    warned.current = true;
    console.warn(
      "oidc-kit: <AuthProvider> got a new client with the same settings as the one it had. Unless a hot reload of the module that creates it just ran (then this is expected), a client is created while rendering: each new one restores the session anew (with storage: 'memory', the session is lost). Create the client once, outside your components or with useState(() => new AuthClient(config)); pass another client only to switch to other settings.",
    );
  }, [client]);
}
