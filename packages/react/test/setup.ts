import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadLazyParts } from '../src/core/SessionCore';

// Auth libraries break where effects run twice; every render in our tests is a StrictMode render.
configure({ reactStrictMode: true, asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});

// The engine loads its lazy parts on first use; tests start with them loaded, so that fake timers
// never wait on a module load. `test/lazyParts.test.ts` covers a cold start.
await loadLazyParts();
