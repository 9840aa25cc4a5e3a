// The bodies this API answers with, for clients to import as types only
// (`import type { MeBody } from '@oidc-kit/reference-api/types'`): the package's `exports` name
// this file under the `types` condition alone, so no server code can end up in an app's bundle.
// An app's `tsc` checks this file and what it imports: nothing that needs hono or jose.

/** The body of `GET /me`: the caller, as the verified access token says. */
export interface MeBody {
  readonly sub: string;
  readonly name: string | null;
  readonly roles: readonly string[];
  readonly scope: string;
}

export type { UsageSnapshot } from './usage';
