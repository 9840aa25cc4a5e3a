const warned = /* @__PURE__ */ new WeakSet<object>();

/**
 * Development builds only (called behind a `NODE_ENV` check): a token asked of a client that was
 * never started finds no session, whatever is stored, so the request goes without one. Once per
 * client (`core`).
 */
export function warnNeverStarted(core: object): void {
  if (warned.has(core)) return;
  warned.add(core);
  console.warn(
    'oidc-kit: getAccessToken(), getAuthHeaders() or the authenticated fetch was called on an AuthClient that was never started, so it knows no session: the request goes without a token. Pass this client to <AuthProvider client={client}> (an <AuthProvider config={...}> makes a client of its own) and ask from an effect, not while rendering (the provider starts the client in its own effect), or call client.start() first.',
  );
}
