// The text of a PDF as poppler's pdftotext extracts it (Debian package poppler-utils), for tests
// that check what a certificate says rather than how it looks.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Text of every page in reading order, with pages separated by form feeds. */
export async function pdfText(pdf: Buffer | string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pdf-text-'));
  try {
    const file = typeof pdf === 'string' ? pdf : path.join(dir, 'document.pdf');
    if (typeof pdf !== 'string') await fs.writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    return stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
