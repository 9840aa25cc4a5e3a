// Size budgets in bytes min+gzip, counted as size-limit counts (1 kB = 1000 B). The bench reports
// each; `npm test` enforces the up-front one and prints the all-chunks ones (see `checkSize.ts`).

/** The typical entry over oidc-client-ts. */
export const sizeTarget = 2500;
/** The typical entry, what loads before the first render. */
export const upFrontTarget = 7000;
/** The typical entry, every chunk. */
export const typicalTarget = 8500;
/** Everything, every chunk. */
export const everythingTarget = 9500;
