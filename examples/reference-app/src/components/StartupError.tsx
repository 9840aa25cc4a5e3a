import { isAuthError } from '@oidc-kit/react';
import { SettingError } from '../settings';
import layout from '../styles/layout.module.css';
import ui from '../styles/ui.module.css';

/** The deployment variable behind each auth setting the environment gives (see config.ts). */
const variables: Record<string, string> = {
  authority: 'VITE_OIDC_AUTHORITY',
  client_id: 'VITE_OIDC_CLIENT_ID',
  storage: 'VITE_OIDC_STORAGE',
  'idle.timeout': 'VITE_OIDC_IDLE_TIMEOUT',
  'idle.warning': 'VITE_OIDC_IDLE_WARNING',
  'apiOrigins[0]': 'VITE_API_URL',
};

/** The setting at fault: a `VITE_*` variable, or a field of `authConfig` in `src/config.ts`. */
function settingOf(error: unknown): string | null {
  if (error instanceof SettingError) return `${error.setting} (see .env.example)`;
  if (!isAuthError(error, 'config_invalid') || error.field === undefined) return null;
  const variable = variables[error.field];
  return variable === undefined
    ? `${error.field} in src/config.ts`
    : `${error.field}, from ${variable} (see .env.example)`;
}

/**
 * What the page shows when the app cannot start: most often a wrong setting, refused as the app's
 * modules load (`settings.ts` for a malformed `VITE_*` value, `new AuthClient(config)` in
 * `auth.ts` for a wrong auth setting), before React could render anything.
 */
export function StartupError({ error }: { error: unknown }) {
  const setting = settingOf(error);
  return (
    <main className={layout.main}>
      <section
        className={`${ui.banner} ${ui.problem}`}
        role="alert"
        aria-labelledby="startup-error"
      >
        <h1 id="startup-error">
          {setting === null ? 'The app could not start' : 'A setting is wrong'}
        </h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        {setting !== null && (
          <p>
            Setting: <code>{setting}</code>
          </p>
        )}
      </section>
    </main>
  );
}
