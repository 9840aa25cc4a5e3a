// Row 1: bundle sizes. esbuild (bundle, minify, ESM, browser, code splitting) with react,
// react-dom and react-router external, gzip level 9, each chunk gzipped on its own. Builds are
// deterministic: one build is its own median.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { job } from '../support/job';
import { benchDir, outDir } from '../support/paths';

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

/** One chunk of the typical entry built from the package's source, and what is in it. */
export interface SourceChunk {
  /** `up front` (the entry and its static imports), else the lazy chunk's name. */
  name: string;
  gzip: number;
  /** Minified bytes of each source file in the chunk (package-relative path), biggest first. */
  files: [path: string, min: number][];
}

export interface SizeResults {
  esbuild: string;
  builds: Record<string, Size>;
  /** Where the typical entry's bytes go, file by file (see `sourceBreakdown`). */
  breakdown: SourceChunk[];
}

const appExternals = ['react', 'react-dom', 'react-router', 'react/jsx-runtime'];
/**
 * "oidc-client-ts external" leaves out what an app has whichever React binding it picks:
 * oidc-client-ts and its JWT decoder, and jose (needed only by the `/verify-signature` entry,
 * which these apps do not import).
 */
const libraryExternals = ['oidc-client-ts', 'jwt-decode', 'jose'];
const entriesDir = join(outDir, 'size-entries');
const packageDir = join(benchDir, '..', 'packages', 'react');

function entryFile(name: string, contents: string): string {
  mkdirSync(entriesDir, { recursive: true });
  const path = join(entriesDir, `${name}.ts`);
  writeFileSync(path, contents);
  return path;
}

/**
 * Builds `entry` for the browser as an app's bundler would, in memory; `from` picks where
 * @oidc-kit/react comes from: its built `dist` (through its package exports) or its source.
 */
function bundle(entry: string, oidcExternal: boolean, from: 'dist' | 'source' = 'dist') {
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
function upFrontOf(outputs: Metafile['outputs'], entry: string): Set<string> {
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

async function measure(entry: string, oidcExternal: boolean): Promise<Size> {
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

/**
 * The typical entry built as above, but from @oidc-kit/react's source instead of its `dist`, so
 * the bundler can say which source file each minified byte comes from. Gzip sizes do not add up
 * by file, so files get their minified bytes and chunks their gzip. The published build also
 * shortens the engine's member names, which this one does not: its chunks come out a little
 * bigger than the rows above.
 */
async function sourceBreakdown(entry: string): Promise<SourceChunk[]> {
  const result = await bundle(entry, true, 'source');
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  const upFront = upFrontOf(outputs, entry);
  const chunks = new Map<string, { gzip: number; files: Map<string, number> }>();
  for (const file of result.outputFiles) {
    const path = relative(benchDir, file.path);
    const output = outputs[path];
    if (!path.endsWith('.js') || output === undefined) continue;
    const name = upFront.has(path)
      ? 'up front'
      : (/([A-Za-z]+)-[\w-]+\.js$/.exec(path)?.[1] ?? path);
    const chunk = chunks.get(name) ?? { gzip: 0, files: new Map<string, number>() };
    chunk.gzip += gzipSync(file.contents, { level: 9 }).byteLength;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue;
      const source = relative(packageDir, join(benchDir, input));
      const label = source.startsWith('..') ? 'the app itself' : source;
      chunk.files.set(label, (chunk.files.get(label) ?? 0) + bytesInOutput);
    }
    chunks.set(name, chunk);
  }
  return [...chunks].map(([name, { gzip, files }]) => ({
    name,
    gzip,
    files: [...files].sort((a, b) => b[1] - a[1]),
  }));
}

async function measureSizes(): Promise<SizeResults> {
  const { version } = await import('esbuild');
  const entries = {
    'oidc-kit typical': join(benchDir, 'src/apps/oidc-kit.tsx'),
    'oidc-kit everything': entryFile('oidc-kit-everything', "export * from '@oidc-kit/react';\n"),
    'react-oidc-context typical': join(benchDir, 'src/apps/react-oidc-context.tsx'),
    'react-oidc-context everything': entryFile(
      'react-oidc-context-everything',
      "export * from 'react-oidc-context';\n",
    ),
  };
  const builds: Record<string, Size> = {};
  // Ours only (react-oidc-context has no idle sign-out): what turning it on adds.
  builds['oidc-kit typical with idle sign-out, oidc-client-ts external'] = await measure(
    join(benchDir, 'src/apps/oidc-kit-idle.tsx'),
    true,
  );
  for (const [name, entry] of Object.entries(entries)) {
    const external = await measure(entry, true);
    builds[`${name}, oidc-client-ts external`] = external;
    builds[`${name}, oidc-client-ts bundled`] = await measure(entry, false);
    // The part of oidc-client-ts this build uses, bundled alone the same way: the baseline that
    // "over oidc-client-ts" subtracts.
    const names = external.oidcImports;
    const baseline = entryFile(
      `oidc-client-ts-for-${name.replace(/\W+/g, '-')}`,
      `export { ${names.join(', ')} } from 'oidc-client-ts';\n`,
    );
    builds[`oidc-client-ts alone, what ${name} imports`] = await measure(baseline, false);
  }
  const breakdown = await sourceBreakdown(entries['oidc-kit typical']);
  return { esbuild: version, builds, breakdown };
}

void job('sizes', measureSizes);
