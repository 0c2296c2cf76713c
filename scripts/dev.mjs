// `npm run dev`: the API (restarted by tsx on change) on :3000 and the Vite dev server with hot
// reload on :5173, which proxies API calls to :3000. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'cli/bin.ts', 'serve', '--demo', '--port', '3000'], { stdio: 'inherit' }),
  spawn('npx', ['vite', '--config', 'ui/vite.config.ts'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGINT'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { if (code) { stop(); process.exitCode = code; } });
