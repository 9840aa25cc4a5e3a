import { fileURLToPath } from 'node:url';

/** The benchmarks workspace. The measurements run from `.out/`, one level below it. */
export const benchDir = fileURLToPath(new URL('..', import.meta.url));
/** Where the bench writes what it builds (git-ignored). */
export const outDir = fileURLToPath(new URL('../.out', import.meta.url));
