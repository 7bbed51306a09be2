import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startEarlyReads } from './layout/earlyReads';
import './styles/base.css';

// With a stored session the page's first reads go now, beside the signed-in app's code.
startEarlyReads(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
