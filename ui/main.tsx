// First: zod must find its settings when it loads.
import './zodJitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { unstable_HistoryRouter as HistoryRouter } from 'react-router-dom';
import { App, preloadScreensOf } from './App.js';
import { portalHistory } from './portalHistory.js';
import { readStoredUser, SessionProvider } from './session.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element in index.html');

// A signed-in user's screens load beside GET /me, not after it (session.tsx waits for that answer).
preloadScreensOf(readStoredUser()?.userType);

// A declarative router on the page's own history, which can hold any navigation (the browser's back
// and forward included) while a screen has unsaved entries (guardedHistory.ts,
// hooks/useUnsavedGuard.tsx). Not a data router: its core would double the login page's vendor code.
createRoot(root).render(
  <StrictMode>
    <HistoryRouter history={portalHistory.history}>
      <SessionProvider>
        <App />
      </SessionProvider>
    </HistoryRouter>
  </StrictMode>,
);
