/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_OIDC_AUTHORITY?: string;
  readonly VITE_OIDC_CLIENT_ID?: string;
  readonly VITE_OIDC_SCOPE?: string;
  readonly VITE_OIDC_EXTRA_PARAMS?: string;
  readonly VITE_OIDC_ROLES?: string;
  readonly VITE_OIDC_STORAGE?: string;
  readonly VITE_API_URL?: string;
}
