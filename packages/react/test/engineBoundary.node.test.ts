import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

// One ESLint for the file: loading typescript-eslint is the slow part.
const eslint = new ESLint({ cwd: root });

async function lint(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId);
}

test.each([
  "import { useState } from 'react';\nexport const x = useState;\n",
  "import { createRoot } from 'react-dom/client';\nexport const x = createRoot;\n",
  "import type { ReactNode } from 'react';\nexport type X = ReactNode;\n",
])('lint refuses React in the engine: %j', async (code) => {
  expect(await lint(code, 'packages/react/src/core/Example.ts')).toContain('no-restricted-imports');
});

test('lint allows React outside the engine', async () => {
  const code = "import { useState } from 'react';\nexport const x = useState;\n";
  expect(await lint(code, 'packages/react/src/hooks/useExample.ts')).not.toContain(
    'no-restricted-imports',
  );
});
