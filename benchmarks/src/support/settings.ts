/** How many times each scenario runs (its figure is the median). */
export const runs = { renders: 5, refresh: 5, requests: 3 } as const;
/** Components reading the user's name, and renewals, in the re-render scenario. */
export const readers = 100;
export const renewals = 10;
/** Concurrent API calls, and tabs, in the refresh scenarios. */
export const calls = 50;
export const tabCount = 3;
/** Milliseconds the fake provider's token endpoint takes to answer: a short network round trip. */
export const tokenDelay = 20;
/** Ports of the browser scenario: the dev provider and the two apps. */
export const ports = { provider: 4200, oidcKit: 4273, reactOidcContext: 4274 } as const;
/** Milliseconds tinybench spends on each DPoP scenario (the proof cost is a median of many). */
export const dpopTime = 2_000;
