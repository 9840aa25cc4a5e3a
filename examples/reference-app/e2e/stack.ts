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
  /**
   * The same app built with idle sign-out after 20 s without input, the warning 14 s before (it
   * shows after 6 s: a long warning leaves a loaded machine time for the test's steps in it).
   */
  idleApp: `http://localhost:${idleAppPort}`,
} as const;
