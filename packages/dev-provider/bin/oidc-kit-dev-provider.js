#!/usr/bin/env node
// Committed launcher for the built CLI: npm links a workspace bin only if its file exists at
// install time, and dist/ does not exist yet in a fresh clone.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error(
    [
      `oidc-kit-dev-provider: ${cli.pathname} is missing.`,
      'Installed from npm: the package arrived incomplete; reinstall it (`npm install -D @oidc-kit/dev-provider`).',
      'In the oidc-kit repository: build it first (`npx turbo run build --filter=@oidc-kit/dev-provider`).',
    ].join('\n'),
  );
  process.exit(1);
}
await import(cli.href);
