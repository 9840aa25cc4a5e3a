import { fileURLToPath } from 'node:url';

/** The benchmarks workspace. The compiled measurements run from `dist/`, one level below it. */
export const benchDir = fileURLToPath(new URL('..', import.meta.url));
/** Where the bench writes what it builds and measures (git-ignored). */
export const outDir = fileURLToPath(new URL('../dist', import.meta.url));
