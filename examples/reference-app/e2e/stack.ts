const providerPort = 4100;
const apiPort = 4101;
const appPort = 4173;

/** Where the end-to-end stack listens. */
export const e2e = {
  providerPort,
  apiPort,
  appPort,
  provider: `http://localhost:${providerPort}`,
  api: `http://localhost:${apiPort}`,
  app: `http://localhost:${appPort}`,
} as const;
