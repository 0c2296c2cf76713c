import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The layers of DESIGN.md section 3, stated so that a wrong import fails lint. Our imports are
// relative, so each rule names the folder a relative path climbs into (our folder names are unique).
// A file gets one `no-restricted-imports` setting (a later match replaces an earlier one), so each
// layer lists everything it may not reach. no-restricted-imports does not see `import()`, so the same
// patterns also go to no-restricted-syntax as selectors on ImportExpression (lazy loads are common
// here: the CLI's commands, pdfkit and qrcode in the documents).
const into = (...folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;
/** A package name and anything under it (`fs` and `fs/promises`), or a prefix ending in `*`. */
const packages = (...names) => `^(${names.map((n) => (n.endsWith('*') ? `${n.slice(0, -1)}.*` : `${n}(/|$)`)).join('|')})`;
// esquery's regular expressions end at the first `/`, so a selector spells it \x2F.
const importExpression = ({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`, message });
const layer = (files, patterns) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    'no-restricted-syntax': ['error', ...patterns.map(importExpression)],
  },
});
const NO_CLI = { regex: into('cli'), message: 'server/ never imports cli/: the CLI is an adapter on top of the server.' };
const NO_HTTP = { regex: into('http'), message: 'Services never import http/: routes call services, not the other way round.' };
const NO_IO = packages('node:*', 'fs', 'path', 'http', 'knex', 'pg', 'sqlite3', 'better-sqlite3', 'nodemailer', 'koa', '@koa/*', 'pino', 'react', 'pdfkit', 'qrcode');
const layers = [
  layer(['server/**'], [NO_CLI]),
  layer(['server/http/**'], [
    NO_CLI,
    { regex: into('db'), message: 'server/http never imports server/db: a route calls a service, which owns the queries.' },
  ]),
  layer(['server/services/**'], [NO_CLI, NO_HTTP]),
  layer(['server/mail/**'], [NO_CLI, NO_HTTP, { regex: into('services'), message: 'server/mail never imports services: services call the mailer.' }]),
  layer(['server/db/**'], [
    NO_CLI,
    { regex: into('http', 'services', 'mail', 'documents'), message: 'server/db is the bottom layer: it never imports http/, services/, mail/ or documents/ (they call it).' },
  ]),
  layer(['server/domain/**'], [
    { regex: '^\\.\\./', message: 'server/domain is pure and imports nothing of ours outside server/domain.' },
    { regex: NO_IO, message: 'server/domain is pure: no I/O, no framework.' },
  ]),
  // Commands never import each other (no import cycles): what several share lives in cli/ itself.
  layer(['cli/commands/**'], [{ regex: '^\\./', message: 'A command never imports another command: move what both need into cli/ (e.g. cli/requestRef.ts).' }]),
  layer(['ui/**'], [
    { regex: '^(\\.\\./)+server/(?!domain/)', message: 'ui/ imports only server/domain of the server.' },
    { regex: into('cli'), message: 'ui/ never imports cli/.' },
  ]),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['cli/**', 'scripts/**', 'tests/**', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read loosely typed JSON bodies of the API.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...layers,
  {
    // Messages live in the page (DESIGN.md section 10): outcomes in role=alert/status regions,
    // confirmations in accessible dialogs (ui/components/ConfirmDialog.tsx), never the browser's boxes.
    files: ['ui/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['alert', 'confirm', 'prompt'].map((name) => ({ name, message: `No ${name}() in the portal: show the message in the page (components/Notice.tsx, ConfirmDialog).` })),
      ],
      'no-restricted-properties': [
        'error',
        ...['alert', 'confirm', 'prompt'].flatMap((property) =>
          ['window', 'globalThis', 'self'].map((object) => ({ object, property, message: `No ${object}.${property}() in the portal: show the message in the page (components/Notice.tsx, ConfirmDialog).` })),
        ),
      ],
    },
  },
);
