const providerPort = 4100;
const apiPort = 4101;
const appPort = 4173;
const memoryAppPort = 4174;

/** Where the end-to-end stack listens. */
export const e2e = {
  providerPort,
  apiPort,
  appPort,
  memoryAppPort,
  provider: `http://localhost:${providerPort}`,
  api: `http://localhost:${apiPort}`,
  app: `http://localhost:${appPort}`,
  /** The same app built with `storage: 'memory'`. */
  memoryApp: `http://localhost:${memoryAppPort}`,
} as const;
