// Compiles the code in the docs as a user who installed the packages from npm would: every
// ```ts / ```tsx / ```js / ```jsx block of the repository's READMEs and docs/ is a module of its
// own, all of them in one strict TypeScript program that finds `@oidc-kit/react` and
// `@oidc-kit/dev-provider` by name, through their package.json `exports`, so the BUILT types
// in dist/ (turbo builds them first: this is the package's `typecheck`, which needs `^build`).
// ```json blocks must parse. A block that is deliberately an excerpt says so on the line before
// its fence, where readers of the Markdown see it too: <!-- snippet: fragment, why -->.
// The READMEs that packages publish link only to absolute URLs (npmjs.com shows them too).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const outDir = join(here, '.snippets');
const started = performance.now();

/** `dir`'s Markdown files, recursively (docs/ and its subfolders). */
function markdownIn(dir) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name));
}

/** `<dir>/*\/README.md` (packages/*, examples/*). */
function readmesIn(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name, 'README.md'))
    .filter((page) => existsSync(join(root, page)));
}

const pages = [
  'README.md',
  ...markdownIn('docs'),
  ...readmesIn('packages'),
  ...readmesIn('examples'),
  'benchmarks/README.md',
].sort();
const extensions = {
  ts: 'ts',
  typescript: 'ts',
  tsx: 'tsx',
  js: 'js',
  javascript: 'js',
  jsx: 'jsx',
  json: 'json',
};
// Not compiled: commands, output, Markdown. Any other language is a problem, so that a block in a
// new one is not skipped unseen.
const prose = new Set(['sh', 'bash', 'shell', 'console', 'text', 'md', 'markdown', 'diff']);
const problems = [];
const written = [];
let fragments = 0;
let json = 0;

for (const name of ['react', 'dev-provider']) {
  if (!existsSync(join(root, 'packages', name, 'dist/index.d.ts'))) {
    console.error(
      `check-snippets: packages/${name}/dist is missing; the snippets compile against the built ` +
        'packages: run `npx turbo run typecheck --filter=@oidc-kit/test-packed`, which builds them first.',
    );
    process.exit(1);
  }
}

// A published package's README is read on npmjs.com too, which does not resolve a relative link
// against the package's folder in the repository (`repository.directory`): there it leads nowhere.
const published = readmesIn('packages').filter(
  (page) =>
    JSON.parse(readFileSync(join(root, dirname(page), 'package.json'), 'utf8')).private !== true,
);
for (const page of published) {
  // Code blocks blanked out, lines kept: `handlers[0](event)` in code is no link.
  const text = readFileSync(join(root, page), 'utf8').replace(
    /^( *)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm,
    (block) => block.replace(/[^\n]/g, ' '),
  );
  for (const match of text.matchAll(/\]\(([^)\s]+)[^)]*\)/g)) {
    if (/^(https?:|mailto:|#)/.test(match[1])) continue;
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(
      `${page}:${line}: the link "${match[1]}" is relative, and leads nowhere on npmjs.com, where this README is published: link to https://github.com/oidc-kit/oidc-kit/blob/main/… instead`,
    );
  }
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
for (const page of pages) {
  const text = readFileSync(join(root, page), 'utf8');
  const lines = text.split('\n');
  let index = 0;
  // A fence may be indented (a block inside a list item); its body is dedented by as much. It
  // may say more after its language (```ts title="app.ts"), and be longer or of tildes (CommonMark):
  // each block must be found, or the ones after it would be read out of step.
  for (const match of text.matchAll(
    /^( *)(`{3,}|~{3,})([^\s`]*)[^\n]*\n([\s\S]*?)^\1\2[ \t]*$/gm,
  )) {
    const [, indent, , language, body] = match;
    const extension = extensions[language.toLowerCase()];
    const fence = text.slice(0, match.index).split('\n').length; // 1-based line of the fence
    const at = `${page}:${fence}`;
    if (extension === undefined) {
      if (!prose.has(language.toLowerCase())) {
        problems.push(
          `${at}: a block ${language === '' ? 'without a language' : `in "${language}"`} is neither compiled nor known as prose: use ts, tsx, js, jsx or json for code, or one of ${[...prose].join(', ')}`,
        );
      }
      continue;
    }
    const marker = lines
      .slice(0, fence - 1)
      .findLast((line) => line.trim() !== '')
      ?.match(/^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/);
    if (marker) {
      if (!/^fragment\b/.test(marker[1])) {
        problems.push(`${at}: unknown marker "snippet: ${marker[1]}" (only "fragment")`);
      }
      fragments += 1;
      continue;
    }
    const code = body.replace(new RegExp(`^${indent}`, 'gm'), '');
    if (extension === 'json') {
      json += 1;
      try {
        JSON.parse(code);
      } catch (error) {
        problems.push(`${at}: this json block does not parse: ${error.message}`);
      }
      continue;
    }
    index += 1;
    const file = join(outDir, `${page.replace(/\W+/g, '-')}-${index}.${extension}`);
    // No header: line n of the file is line fence + n of the page, for the error report.
    writeFileSync(file, code);
    written.push({ file, page, fence });
  }
}

const options = {
  ...ts.parseJsonConfigFileContent(
    JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')),
    ts.sys,
    outDir,
  ).options,
  // As strict as the strictest app we expect: test-packed's app has these too.
  exactOptionalPropertyTypes: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  // A browser app (`vite/client`: import.meta.env) and Node scripts (Playwright's global setup).
  types: ['node', 'vite/client'],
};
const program = ts.createProgram(
  written.map(({ file }) => file),
  options,
);
for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
  const snippet = written.find(({ file }) => file === diagnostic.file?.fileName);
  if (diagnostic.file === undefined || snippet === undefined) {
    problems.push(`TS${diagnostic.code}: ${message}`);
    continue;
  }
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const source = diagnostic.file.text.split('\n')[line];
  problems.push(
    `${snippet.page}:${snippet.fence + line + 1}:${character + 1} - TS${diagnostic.code}: ${message}\n    ${source}`,
  );
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (problems.length > 0) {
  // In page order, then line order (tsc lists syntax errors of every file before the others).
  const order = (problem) => problem.match(/^(.*?):(\d+)/)?.slice(1) ?? ['', '0'];
  problems.sort((a, b) => {
    const [pageA, lineA] = order(a);
    const [pageB, lineB] = order(b);
    return pageA.localeCompare(pageB) || Number(lineA) - Number(lineB);
  });
  console.error(problems.join('\n'));
  console.error(
    `check-snippets: ${problems.length} problem(s) in the docs' code blocks (as compiled: ${relative(root, outDir)}) or links. ` +
      'Fix the block; an excerpt that is not meant to compile is marked on the line before its fence: <!-- snippet: fragment, why -->.',
  );
  process.exit(1);
}
console.log(
  `check-snippets: ${written.length} code blocks compile against the built packages and ${json} json blocks parse, ` +
    `${fragments} marked fragments skipped, in ${pages.length} pages (${seconds} s)`,
);
