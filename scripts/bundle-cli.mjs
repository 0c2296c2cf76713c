// Bundles the compiled CLI (dist/cli/bin.js, from tsc) into dist/labctl/, which bin/labctl runs.
// Why: `labctl serve` loaded about 600 files (knex alone pulls in some 300 lodash modules), and
// resolving, reading and compiling them one by one was most of its start-up: 2.1 s against 0.8 s
// bundled on the loaded 2-core machine. Commands stay separate chunks, loaded when named.
// Left outside the bundle, loaded from node_modules as they are: native and optional database
// drivers, packages that read files next to their own code (pdfkit's font metrics) and the
// terminal-only Ink stack, all of which are imported only by the commands that use them.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outdir = path.join(root, 'dist/labctl');

const external = [
  // Database drivers: better-sqlite3 is native; the others are knex's optional dialects.
  'sqlite3', 'pg', 'pg-native', 'pg-query-stream', 'mysql', 'mysql2', 'mariadb', 'oracledb', 'tedious', 'better-sqlite3',
  // Documents: pdfkit reads its font files from its own folder; loaded on first certificate or label.
  'pdfkit', 'qrcode',
  // Terminal views.
  'ink', 'ink-spinner', 'react', 'react-devtools-core',
];

// Chunk names carry content hashes: clear the last build's.
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'dist/cli/bin.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS packages call require(); in an ES module it has to be made.
  banner: { js: "import { createRequire as __labctlRequire } from 'node:module'; const require = __labctlRequire(import.meta.url);" },
  // Stack traces (problem reports) point at the TypeScript sources through tsc's maps.
  sourcemap: 'linked',
  logLevel: 'warning',
});
