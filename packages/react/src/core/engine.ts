// The engine's chunk: what `loadEngine` loads behind `import()`, one chunk an app's bundler splits
// off. The session engine, and the authenticated fetch that `createAuthFetch` hands out.
export { SessionCore } from './SessionCore';
export { makeAuthFetch } from './authFetch';
