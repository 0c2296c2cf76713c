import { UNSAFE_createBrowserHistory } from 'react-router-dom';
import { guardHistory } from './guardedHistory.js';

/**
 * The one history of the page (main.tsx gives it to the router; hooks/useUnsavedGuard.tsx registers
 * its blockers here). v5Compat: push and replace notify the router, as <BrowserRouter>'s own does.
 */
export const portalHistory = guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }));
