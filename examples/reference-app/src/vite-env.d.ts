/// <reference types="vite/client" />

/** The deployment settings (see .env.example); the rest is in src/config.ts. */
interface ImportMetaEnv {
  readonly VITE_OIDC_AUTHORITY?: string;
  readonly VITE_OIDC_CLIENT_ID?: string;
  readonly VITE_OIDC_STORAGE?: string;
  readonly VITE_OIDC_IDLE_TIMEOUT?: string;
  readonly VITE_OIDC_IDLE_WARNING?: string;
  readonly VITE_API_URL?: string;
}
