// `npm run bench`: compiles the measurements (TypeScript) with esbuild, then runs them.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../.out', import.meta.url));
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: process.argv.length > 2 ? process.argv.slice(2) : ['src/main.ts', 'src/support/dom.ts', 'src/measure/*.ts', 'src/measure/*.tsx'],
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  outdir,
  bundle: true,
  // Packages load from node_modules at run time: @oidc-kit/react from its built dist, through its exports.
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  logLevel: 'warning',
});
await import(new URL('../.out/main.mjs', import.meta.url).href);
