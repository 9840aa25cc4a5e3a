// The API's own response types, under this app's names: `import type` only, so nothing of the
// server is bundled (the API package exports its types alone, see its src/types.ts).
export type { MeBody as Me, UsageSnapshot as AdminStats } from '@oidc-kit/reference-api/types';
