/** The port the dev provider was asked to listen on is taken by another process. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  readonly port: number;

  constructor(port: number) {
    super(
      `oidc-kit-dev-provider: port ${port} is already in use. Stop the other process or choose another port with --port <n> or OIDC_KIT_PROVIDER_PORT.`,
    );
    this.port = port;
  }
}
