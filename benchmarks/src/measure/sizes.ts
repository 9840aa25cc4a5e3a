// Row 1: bundle sizes (built as `support/bundleSize` says), and where the typical entry's bytes
// go. Builds are deterministic: one build is its own median.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { bundle, measure, packageDir, upFrontOf } from '../support/bundleSize';
import type { Size } from '../support/bundleSize';
import { job } from '../support/job';
import { benchDir, outDir } from '../support/paths';

export type { Size } from '../support/bundleSize';

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

const entriesDir = join(outDir, 'size-entries');

function entryFile(name: string, contents: string): string {
  mkdirSync(entriesDir, { recursive: true });
  const path = join(entriesDir, `${name}.ts`);
  writeFileSync(path, contents);
  return path;
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
    'oidc-kit everything': join(benchDir, 'src/apps/oidc-kit-everything.ts'),
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
