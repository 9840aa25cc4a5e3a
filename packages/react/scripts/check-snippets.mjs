// Typechecks the code in the docs: every ```ts / ```tsx block that starts with an import is a
// complete module, compiled as an app would compile it (strict, the package by its name).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const root = join(packageDir, '../..');
const pages = ['README.md', 'packages/react/README.md', 'docs/errors.md', 'docs/architecture.md'];
const outDir = join(packageDir, '.snippets');

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const written = [];
for (const page of pages) {
  const text = readFileSync(join(root, page), 'utf8');
  let index = 0;
  for (const match of text.matchAll(/^```(tsx?)\n([\s\S]*?)^```$/gm)) {
    const [, language, code] = match;
    if (!code.startsWith('import ')) continue;
    index += 1;
    const line = text.slice(0, match.index).split('\n').length;
    const name = `${page.replace(/\W+/g, '-')}-${index}.${language}`;
    // Each snippet is a module of its own; the line in the page is kept for the error report.
    writeFileSync(join(outDir, name), `// ${page}:${line}\n${code}export {};\n`);
    written.push({ name, at: `${page}:${line}` });
  }
}
writeFileSync(
  join(outDir, 'tsconfig.json'),
  JSON.stringify({
    extends: '../tsconfig.json',
    compilerOptions: { noEmit: true, noUnusedLocals: false, types: ['vite/client'] },
    files: written.map(({ name }) => name),
  }),
);
try {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', outDir], {
    stdio: 'inherit',
  });
} catch {
  console.error(
    `check-snippets: the code blocks above do not compile (in ${relative(root, outDir)}).`,
  );
  process.exit(1);
}
console.log(
  `check-snippets: ${written.length} code blocks compile: ${written.map(({ at }) => at).join(', ')}`,
);
