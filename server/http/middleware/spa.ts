// The built portal: hashed assets cached for a year, index.html for every other GET so the React
// router can take over. Mounted after the API routers, so API routes always win.
import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export interface LabNames {
  labName: string;
  labShortName: string;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * index.html with the laboratory's configured names in its meta tags (read by ui/labName.ts) and in
 * the header of the frame painted before the scripts run.
 */
export function personaliseIndex(html: string, names: LabNames): string {
  return html
    .replace(/(<meta name="lab-name" content=")[^"]*(")/, `$1${escapeAttribute(names.labName)}$2`)
    .replace(/(<span class="brand-title">)[^<]*(<\/span>)/, `$1${escapeAttribute(names.labName)}$2`)
    .replace(/(<meta name="lab-short-name" content=")[^"]*(")/, `$1${escapeAttribute(names.labShortName)}$2`);
}

export function serveSpa(uiDir: string, names: LabNames): Middleware {
  const indexFile = path.join(uiDir, 'index.html');
  let index: { mtimeMs: number; html: string } | undefined;
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 404 || ctx.body !== undefined) return next();
    if (ctx.path.startsWith('/assets/')) {
      await send(ctx, ctx.path, {
        root: uiDir,
        immutable: true,
        maxage: YEAR_SECONDS * 1000,
      }).catch(() => undefined);
      if (ctx.body) return;
      return next();
    }
    const file = ctx.path.replace(/^\/+/, '');
    if (file && !file.includes('..') && /\.[a-z0-9]+$/i.test(file) && fs.existsSync(path.join(uiDir, file))) {
      await send(ctx, file, { root: uiDir, maxage: 60 * 60 * 1000 });
      return;
    }
    if (!fs.existsSync(indexFile)) {
      ctx.status = 503;
      ctx.body = { message: 'The portal has not been built yet: run `npm run build`.' };
      return;
    }
    // Re-read only when a rebuild replaced the file.
    const { mtimeMs } = fs.statSync(indexFile);
    if (index?.mtimeMs !== mtimeMs) index = { mtimeMs, html: personaliseIndex(fs.readFileSync(indexFile, 'utf8'), names) };
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html';
    ctx.body = index.html;
  };
}
