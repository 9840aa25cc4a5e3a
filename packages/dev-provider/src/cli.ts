#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { CliUsageError, cliUsage, parseCliArgs } from './parseCliArgs.js';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { PortInUseError } from './PortInUseError.js';
import { readyLine, startDevProvider } from './startDevProvider.js';

async function main(): Promise<void> {
  const command = parseCliArgs(process.argv.slice(2), process.env);
  if (command.kind === 'help') {
    process.stdout.write(cliUsage);
    return;
  }
  if (command.kind === 'version') {
    const packageJson = new URL('../package.json', import.meta.url);
    console.log((JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version);
    return;
  }
  const started = startDevProvider(command.options);
  // Handlers go in before anything is printed (startDevProvider prints nothing synchronously): a
  // signal that arrives before `process.on` kills the process without cleanup. A signal during
  // startup stops the provider once it has started.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    if (!command.options.quiet) console.log(`oidc-kit dev provider stopping (${signal})`);
    // A failed startup is reported by main's catch below.
    started
      .then((provider) => provider.stop())
      .then(
        () => process.exit(0),
        () => {},
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const provider = await started;
  if (command.options.quiet) console.log(readyLine(provider));
}

main().catch((error: unknown) => {
  // Expected failures get their one-line message; anything else gets the stack to debug with.
  const expected =
    error instanceof CliUsageError ||
    error instanceof DevProviderConfigError ||
    error instanceof PortInUseError ||
    (error instanceof Error && error.message.startsWith('oidc-kit-dev-provider:'));
  const text = expected ? (error as Error).message : String((error as Error)?.stack ?? error);
  process.stderr.write(`${text}\n`, () => process.exit(1));
});
