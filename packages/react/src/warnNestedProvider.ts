import { useContext, useEffect, useRef } from 'react';
import { AuthContext } from './authContext';
import { changedSettings } from './warnConfigChange';
import { settingsOf } from './warnNewClient';

/**
 * Development builds only (`AuthProvider` calls it under a `NODE_ENV` check): warns once when the
 * provider is nested in another whose client has the same settings. The hooks below read the
 * inner one, and the page runs two clients that each restore the session, renew it and keep an
 * idle clock. Other settings (another client or tenant for a part of the app) are a choice, and
 * the same client given twice runs once: both pass in silence.
 */
export function useNestedProviderWarning(client: object): void {
  const outer = useContext(AuthContext);
  const warned = useRef(false);
  useEffect(() => {
    const inner = settingsOf(client);
    const around = settingsOf(outer ?? undefined);
    if (warned.current || outer === client || inner === undefined || around === undefined) return;
    if (changedSettings(around, inner).length > 0) return;
    warned.current = true;
    console.warn(
      'oidc-kit: an <AuthProvider> is nested in another with the same settings. The hooks below it read the inner one, and the page runs two clients that each restore and renew the session. Keep one <AuthProvider> at the root of your app; nest another only for other settings (another client_id or authority).',
    );
  }, [outer, client]);
}
