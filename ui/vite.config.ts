import { statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The portal (root `ui/`, built into `dist/ui`, which the Koa server serves).
 *
 * Dev server: the API lives at the server root with the same paths as some screens (/login,
 * /register, ...), so requests are told apart by what they ask for: HTML navigations get
 * index.html, Vite's own files (modules, /@vite/..., /@fs/..., files under ui/ and ui/public/) are
 * served by Vite, and everything else (fetch/XHR calls) is proxied to the API at API_URL
 * (default http://localhost:3000). The Host header is kept so the server's same-origin check sees
 * the page's own origin.
 */
const uiRoot = fileURLToPath(new URL('.', import.meta.url));
const publicDir = path.join(uiRoot, 'public');
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

function isFileUnder(dir: string, pathname: string): boolean {
  const file = path.join(dir, pathname);
  if (!file.startsWith(dir)) return false;
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isViteAsset(url: string): boolean {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split(/[?#]/, 1)[0] ?? '/');
  } catch {
    return false;
  }
  if (pathname.startsWith('/@') || pathname.startsWith('/__') || pathname.startsWith('/node_modules/')) {
    return true;
  }
  return isFileUnder(uiRoot, pathname) || isFileUnder(publicDir, pathname);
}

function wantsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

export default defineConfig({
  root: uiRoot,
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
  },
  server: {
    port: Number(process.env.UI_PORT ?? 5173),
    proxy: {
      '/': {
        target: apiTarget,
        changeOrigin: false,
        xfwd: true,
        bypass(req) {
          const url = req.url ?? '/';
          if (wantsHtml(req) && !isViteAsset(url)) return '/index.html';
          if (isViteAsset(url)) return url;
          return undefined;
        },
      },
    },
  },
});
