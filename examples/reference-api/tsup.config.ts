import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { server: 'src/server.ts' },
  format: ['esm'],
  clean: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
});
