const providerPort = 4100;
const apiPort = 4101;
const appPort = 4173;
const memoryAppPort = 4174;
const idleAppPort = 4175;

/** Where the end-to-end stack listens. */
export const e2e = {
  providerPort,
  apiPort,
  appPort,
  memoryAppPort,
  idleAppPort,
  provider: `http://localhost:${providerPort}`,
  api: `http://localhost:${apiPort}`,
  app: `http://localhost:${appPort}`,
  /** The same app built with `storage: 'memory'`. */
  memoryApp: `http://localhost:${memoryAppPort}`,
  /** The same app built with idle sign-out after 12 s without input, the warning 6 s before. */
  idleApp: `http://localhost:${idleAppPort}`,
} as const;
