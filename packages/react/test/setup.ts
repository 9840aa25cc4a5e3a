import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Auth libraries break where effects run twice; every render in our tests is a StrictMode render.
configure({ reactStrictMode: true, asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});
