import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* waits up to 5 s, as the library's tests do: on a 2-core machine running the other
// packages' suites beside this one, a page's loader can take over the default second.
configure({ reactStrictMode: true, asyncUtilTimeout: 5000 });
afterEach(() => cleanup());
