import type { Usage } from './usage';
import type { VerifiedAccessToken } from './verifyAccessToken';

/** The Hono environment of the reference API: what middleware hands on to the handlers. */
export interface ApiEnv {
  Variables: {
    /** Set by `requireAccessToken` on every request that reaches a protected handler. */
    accessToken: VerifiedAccessToken;
    /** This app's request counters, for `/admin/stats`. */
    usage: Usage;
  };
}
