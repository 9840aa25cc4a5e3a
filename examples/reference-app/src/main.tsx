import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The tokens and the element styles first, then the components and their CSS modules.
import './styles/tokens.css';
import './styles/base.css';
import { StartupError } from './components/StartupError';

const root = createRoot(document.getElementById('root') as HTMLElement);

// The app module builds the auth client as it loads, and a wrong config throws there, before React
// could render anything: load it here, so that the mistake shows on the page, not only in the
// console.
export const started = import('./App').then(
  ({ App }) =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  (error: unknown) => {
    console.error(error);
    root.render(<StartupError error={error} />);
  },
);
