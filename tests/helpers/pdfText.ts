// The text of a PDF, for tests that check what a certificate or label says rather than how it looks.
// Read with pdf.js (the npm package pdfjs-dist), so the tests need no system program such as
// poppler's pdftotext.
import fs from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

/** One run of text placed on the page: its left edge, baseline, width and font height, in points. */
interface Run {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Text of every page in reading order, with pages separated by form feeds. */
export async function pdfText(pdf: Buffer | Uint8Array | string): Promise<string> {
  const bytes = typeof pdf === 'string' ? await fs.readFile(pdf) : pdf;
  // pdf.js takes a plain Uint8Array (it refuses a Buffer) and may detach it: give it its own copy.
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(pageText(content.items.filter((item): item is TextItem => 'str' in item).map(toRun)));
      page.cleanup();
    }
    return `${pages.join('\f')}\f`;
  } finally {
    await document.destroy();
  }
}

function toRun(item: TextItem): Run {
  const [, , , scaleY, x, y] = item.transform as number[];
  return { text: item.str, x, y, width: item.width, height: item.height || Math.abs(scaleY) };
}

/**
 * Lines from top to bottom: runs whose baselines lie within half a font height of each other form a
 * line, read left to right, with a space where a gap separates two runs (as pdftotext does).
 */
function pageText(runs: Run[]): string {
  const lines: Run[][] = [];
  for (const run of runs.filter((r) => r.text.trim() !== '').sort((a, b) => b.y - a.y || a.x - b.x)) {
    const line = lines.at(-1);
    if (line && Math.abs(line[0].y - run.y) <= Math.max(line[0].height, run.height) / 2) line.push(run);
    else lines.push([run]);
  }
  return lines.map(lineText).join('\n') + (lines.length ? '\n' : '');
}

function lineText(line: Run[]): string {
  let text = '';
  let end = -Infinity;
  for (const run of line.sort((a, b) => a.x - b.x)) {
    // A gap wider than a fifth of the font height is a space pdf.js did not emit as text.
    if (text && run.x - end > run.height / 5 && !text.endsWith(' ') && !run.text.startsWith(' ')) text += ' ';
    text += run.text;
    end = run.x + run.width;
  }
  return text;
}
