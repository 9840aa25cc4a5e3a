import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  // Types for the library entry only: the bin has no importable API.
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
});
