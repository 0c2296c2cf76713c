// Builds the server/CLI and the portal when their output is missing or older than the sources, so
// `npm start` and `npm test` work right after `npm ci`.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const outputTime = (file) => (fs.existsSync(path.join(root, file)) ? fs.statSync(path.join(root, file)).mtimeMs : 0);

const steps = [
  // fixtures/ holds code `labctl seed` runs (demo and volume data), compiled with the server.
  { name: 'server and CLI', sources: ['server', 'cli', 'fixtures'], output: 'dist/labctl/bin.js', script: 'build:server' },
  { name: 'portal', sources: ['ui', 'server/domain'], output: 'dist/ui/index.html', script: 'build:ui' },
];

for (const step of steps) {
  const sourceTime = Math.max(...step.sources.map(newestMtime));
  if (outputTime(step.output) >= sourceTime) continue;
  console.error(`Building the ${step.name}...`);
  execSync(`npm run --silent ${step.script}`, { cwd: root, stdio: 'inherit' });
  fs.utimesSync(path.join(root, step.output), new Date(), new Date());
}
