#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { CliUsageError, cliUsage, parseCliArgs } from './parseCliArgs.js';
import { DevProviderConfigError } from './DevProviderConfigError.js';
import { PortInUseError } from './PortInUseError.js';
import { readyLine, startDevProvider, type DevProvider } from './startDevProvider.js';

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
  // Handlers go in before anything is printed: a signal that arrives before `process.on` is
  // called kills the process without cleanup. One during startup stops once started.
  let started: Promise<DevProvider> | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping || started === undefined) process.exit(130);
    stopping = true;
    if (!command.options.quiet) console.log(`oidc-kit dev provider stopping (${signal})`);
    void started.then((provider) => provider.stop()).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  started = startDevProvider(command.options);
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
