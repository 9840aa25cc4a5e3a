import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { loadConfig } from './config';
import type { ApiConfig } from './config';
import { createApi } from './createApi';
import type { CreateApiOptions } from './createApi';

/** Options for {@link startServer}; what is left out comes from the environment. */
export type StartServerOptions = Partial<CreateApiOptions> & {
  /** Default: `API_PUBLIC_ORIGIN`, else {@link RunningServer.url} (the port actually bound). */
  readonly publicOrigin?: string | undefined;
  /** The port to listen on; 0 picks a free one. */
  readonly port?: number;
  /** The variable to name if the port is taken. */
  readonly portVariable?: string;
  /** Interface to listen on. Default `localhost`: a development API need not face the network. */
  readonly hostname?: string;
};

/** A listening reference API. */
export interface RunningServer {
  /** `http://localhost:<port>`, the port being the one actually bound (useful with port 0). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, ends idle keep-alive ones, and resolves once closed. */
  close(): Promise<void>;
}

/** The port was taken; the message names it and the variable that moves the API elsewhere. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

/**
 * Starts the reference API on a Node HTTP server. Settings not given come from the environment
 * (see `loadConfig`).
 *
 * @throws {PortInUseError} when the port is taken; {@link createApi}'s errors for unusable options.
 * @example
 * const server = await startServer({ port: 0 });
 * await fetch(`${server.url}/health`);
 * await server.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = loadConfig();
  const {
    hostname = 'localhost',
    port = env.port,
    portVariable = env.portVariable,
    publicOrigin = env.publicOrigin,
    ...apiOptions
  } = options;
  const server = createServer();

  const bound = await new Promise<number>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUseError(
              `reference API: port ${port} is already in use; set ${portVariable} to another port.`,
              { cause: error },
            )
          : error,
      );
    };
    const onListening = () => {
      server.off('error', onError);
      // Built here, before any connection is read: the default public origin names the port
      // actually bound, known only now when `port` is 0.
      const bound = (server.address() as AddressInfo).port;
      try {
        const app = createApi({
          ...apiOptions,
          issuer: options.issuer ?? env.issuer,
          audience: options.audience ?? env.audience,
          appOrigin: options.appOrigin ?? env.appOrigins,
          publicOrigin: publicOrigin ?? `http://localhost:${bound}`,
          jwksUri: options.jwksUri ?? env.jwksUri,
        });
        server.on('request', getRequestListener(app.fetch));
        resolve(bound);
      } catch (error) {
        server.close();
        reject(error);
      }
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, hostname);
  });

  return {
    url: `http://localhost:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

// Run as a program: print the address, stop on SIGINT/SIGTERM, exit 1 on a bad setting or taken port.
async function main(): Promise<void> {
  let config: ApiConfig;
  let server: RunningServer;
  try {
    config = loadConfig();
    server = await startServer(config);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  console.log(`reference API ready at ${server.url} (issuer ${config.issuer})`);

  const stop = (signal: NodeJS.Signals) => {
    // A second signal while closing (a client holding a request open) stops at once.
    process.once(signal, () => process.exit(1));
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) await main();
