import { defineConfig } from 'vitest/config';

// Three projects so CI can run them as separate steps; Playwright specs (tests/e2e) stay out of vitest.
// The API and CLI files share their workers' loaded modules (isolate: false): each file builds its own
// app, database and mail server and the server keeps no globals, and loading knex, Koa and the
// routes again for every file was a third of the API suite's time.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], testTimeout: 30_000 } },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          isolate: false,
          // npm test runs the browser tests beside the API suites: a guard against a hang, not a
          // timing, with room for a machine whose CPU is throttled (a 55 s file took 235 s on one).
          testTimeout: 240_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'cli',
          include: ['tests/cli/**/*.test.{ts,tsx}'],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
