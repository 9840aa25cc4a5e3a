/** Replaced at build time: the provider's issuer and this app's client id. */
declare const __OIDC_AUTHORITY__: string;
declare const __OIDC_CLIENT_ID__: string;
