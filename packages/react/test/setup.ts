import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadEngine } from '../src/core/loadEngine';

// Auth libraries break where effects run twice; every render in our tests is a StrictMode render.
configure({ reactStrictMode: true, asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});

// A client loads the engine's chunk when it starts; tests start with it loaded, so that fake timers
// never wait on a module load. `src/core/engineChunk.test.ts` covers a cold start.
await loadEngine();
