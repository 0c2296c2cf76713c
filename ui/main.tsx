// First: zod must find its settings when it loads.
import './zodJitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App, preloadScreensOf } from './App.js';
import { readStoredUser, SessionProvider } from './session.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element in index.html');

// A signed-in user's screens load beside GET /me, not after it (session.tsx waits for that answer).
preloadScreensOf(readStoredUser()?.userType);

// A data router (its routes are App's <Routes>) so that a screen with unsaved entries can hold any
// navigation, the browser's back and forward included (useBlocker in hooks/useUnsavedGuard.tsx).
const router = createBrowserRouter([
  {
    path: '*',
    element: (
      <SessionProvider>
        <App />
      </SessionProvider>
    ),
  },
]);

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
