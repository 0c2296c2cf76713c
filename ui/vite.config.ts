import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/**
 * Writes a .br and a .gz beside every built script, style sheet and SVG, at the strongest settings,
 * once: the server sends them as they are when the browser accepts them (koa-send), so assets cost
 * no compression work per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(assets, name);
        const content = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: uiRoot,
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // One chunk per role area (pages load lazily, App.tsx), React's renderer, zod and the other
        // libraries each in their own long-cached chunk, and the ui/domain code the role areas share
        // in one. What the login page needs ($initial) stays in the entry, without zod.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
            { name: 'accounts', test: /ui[\\/]pages[\\/]accounts[\\/](?!LoginPage\.)/ },
            { name: 'client', test: /ui[\\/]pages[\\/]client[\\/]/ },
            { name: 'staff', test: /ui[\\/]pages[\\/]staff[\\/]/ },
            { name: 'tester', test: /ui[\\/]pages[\\/]tester[\\/]/ },
            { name: 'login', tags: ['$initial'] },
            { name: 'shared', test: /(ui|server[\\/]domain)[\\/]/ },
          ],
        },
      },
    },
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
