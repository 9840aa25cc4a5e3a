// Everything @oidc-kit/react's main entry exports, as an app that imports it all gets it.
export * from '@oidc-kit/react';
