import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import { type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App.js';

/** The page's own colours for both schemes (the scheme is kept in localStorage by Mantine). */
const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--platctl-page-bg': 'var(--mantine-color-gray-0)' },
  dark: { '--platctl-page-bg': 'var(--mantine-color-dark-8)' },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider defaultColorScheme="light" cssVariablesResolver={resolver}>
      <App />
    </MantineProvider>
  </StrictMode>,
);
