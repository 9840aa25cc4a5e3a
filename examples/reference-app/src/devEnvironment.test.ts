import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the environment under npm run dev', () => {
  it("reaches the app: turbo passes through vite.config.ts's variables and VITE_*", () => {
    const variables = [...read('../vite.config.ts').matchAll(/process\.env\.(\w+)/g)].map(
      ([, name]) => name,
    );
    const turbo = JSON.parse(read('../../../turbo.json'));
    expect(variables).toContain('REFERENCE_APP_PORT');
    expect(turbo.tasks['@oidc-kit/reference-app#dev']?.passThroughEnv).toEqual(
      expect.arrayContaining([...variables, 'VITE_*']),
    );
  });
});
