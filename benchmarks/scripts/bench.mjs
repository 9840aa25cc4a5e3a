// `npm run bench`: compiles the measurements (TypeScript) with esbuild into dist/, then runs them.
// `npm run size` (`bench.mjs size`): compiles the same way, then runs the size check alone.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const outdir = fileURLToPath(new URL('../dist', import.meta.url));
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
  entryPoints: [
    'src/main.ts',
    'src/checkSize.ts',
    'src/support/dom.ts',
    'src/measure/*.ts',
    'src/measure/*.tsx',
  ],
  entryNames: '[name]',
  outExtension: { '.js': '.mjs' },
  outdir,
  bundle: true,
  // Packages load from node_modules at run time: @oidc-kit/react from its built dist, through its
  // package exports, as an app gets it.
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  logLevel: 'warning',
});
const run = process.argv[2] === 'size' ? 'checkSize' : 'main';
await import(new URL(`../dist/${run}.mjs`, import.meta.url).href);
