/**
 * What the `config_invalid` error of a hook or component used outside `<AuthProvider>` says in
 * development, naming itself and the fix. Called behind a `process.env.NODE_ENV` check only, so
 * production bundles drop it; the react-router entry bundles it (a few lines, not worth an export).
 */
export function missingProvider(name: string): string {
  return `${name}() must be used inside <AuthProvider>. Wrap your app in <AuthProvider config={...}>, or <AuthProvider client={...}> with the AuthClient your router's loaders use (in tests and stories: <MockAuthProvider> from '@oidc-kit/react/testing').`;
}
