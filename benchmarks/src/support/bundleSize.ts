// Bundle sizes as an app's bundler makes them: esbuild (bundle, minify, ESM, browser, code
// splitting) with react, react-dom and react-router external, gzip level 9, each chunk gzipped on
// its own. Used by the bench (row 1) and by the size check in `npm test`.
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { benchDir, outDir } from './paths';

/** Bytes of one build: what the page loads up front, and what it may load later (dynamic imports). */
export interface Size {
  min: number;
  gzip: number;
  lazyMin: number;
  lazyGzip: number;
  /** Of `lazyGzip`, the idle sign-out clock's chunk, which loads only when `idle` is set. */
  idleClockGzip: number;
  /** Of `lazyGzip`, the DPoP chunk, which loads only when `dpop` is set. */
  dpopGzip: number;
  /** What the build imports from oidc-client-ts, when it leaves it external. */
  oidcImports: string[];
}

/** Every chunk of a build: up front and on demand. */
export function allChunks(size: Size): { gzip: number; min: number } {
  return { gzip: size.gzip + size.lazyGzip, min: size.min + size.lazyMin };
}

/** @oidc-kit/react's own folder, whose source the breakdown builds from. */
export const packageDir = join(benchDir, '..', 'packages', 'react');

export const appExternals = ['react', 'react-dom', 'react-router', 'react/jsx-runtime'];
/**
 * "oidc-client-ts external" leaves out what an app has whichever React binding it picks:
 * oidc-client-ts and its JWT decoder, and jose (needed only by the `/verify-signature` entry,
 * which these apps do not import).
 */
export const libraryExternals = ['oidc-client-ts', 'jwt-decode', 'jose'];
/**
 * Builds `entry` for the browser as an app's bundler would, in memory; `from` picks where
 * @oidc-kit/react comes from: its built `dist` (through its package exports) or its source.
 */
export function bundle(entry: string, oidcExternal: boolean, from: 'dist' | 'source' = 'dist') {
  return build({
    absWorkingDir: benchDir,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Dynamic imports become chunks of their own, as an app's bundler (Vite, webpack) makes them.
    splitting: true,
    outdir: join(outDir, from === 'dist' ? 'size-build' : 'size-source-build'),
    write: false,
    metafile: true,
    jsx: 'automatic',
    ...(from === 'source' && { alias: { '@oidc-kit/react': join(packageDir, 'src', 'index.ts') } }),
    external: oidcExternal ? [...appExternals, ...libraryExternals] : appExternals,
    define: {
      'process.env.NODE_ENV': '"production"',
      __OIDC_AUTHORITY__: '"https://login.example.com"',
      __OIDC_CLIENT_ID__: '"web"',
    },
    logLevel: 'silent',
  });
}

/** The entry chunk and the chunks it imports statically: they load up front, the rest on demand. */
export function upFrontOf(outputs: Metafile['outputs'], entry: string): Set<string> {
  const entryOutput = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined);
  if (entryOutput === undefined) throw new Error(`no entry output for ${entry}`);
  const upFront = new Set<string>();
  const visit = (path: string) => {
    if (upFront.has(path)) return;
    upFront.add(path);
    for (const dependency of outputs[path]?.imports ?? []) {
      if (dependency.kind === 'import-statement' && dependency.external !== true) {
        visit(dependency.path);
      }
    }
  };
  visit(entryOutput);
  return upFront;
}

export async function measure(entry: string, oidcExternal: boolean): Promise<Size> {
  const result = await bundle(entry, oidcExternal);
  const files = new Map(result.outputFiles.map((file) => [relative(benchDir, file.path), file]));
  const upFront = upFrontOf(result.metafile.outputs, entry);
  const size: Size = {
    min: 0,
    gzip: 0,
    lazyMin: 0,
    lazyGzip: 0,
    idleClockGzip: 0,
    dpopGzip: 0,
    oidcImports: [],
  };
  for (const [path, file] of files) {
    if (!path.endsWith('.js')) continue;
    const min = file.contents.byteLength;
    const gzip = gzipSync(file.contents, { level: 9 }).byteLength;
    if (upFront.has(path)) {
      size.min += min;
      size.gzip += gzip;
    } else {
      size.lazyMin += min;
      size.lazyGzip += gzip;
      if (/(^|\/)IdleClock-[\w-]+\.js$/.test(path)) size.idleClockGzip += gzip;
      if (/(^|\/)DPoP-[\w-]+\.js$/.test(path)) size.dpopGzip += gzip;
    }
    for (const match of file.text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"oidc-client-ts"/g)) {
      for (const binding of (match[1] ?? '').split(',')) {
        const name = binding.trim().split(/\s+as\s+/)[0];
        if (name) size.oidcImports.push(name);
      }
    }
  }
  size.oidcImports = [...new Set(size.oidcImports)].sort();
  return size;
}
