#!/usr/bin/env node
// Committed launcher for the built CLI: npm links a workspace bin only if its file exists at
// install time, and dist/ does not exist yet in a fresh clone.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error(
    'oidc-kit-dev-provider: the package is not built. Run `npm run build` (or `npx turbo run build --filter=@oidc-kit/dev-provider`) first.',
  );
  process.exit(1);
}
await import(cli.href);
