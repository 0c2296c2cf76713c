// The server secret that keys the hashes of one-time codes: SECRET_KEY when set, otherwise a random
// secret generated into DATA_DIR on first start (mode 0600), shared by every process on that directory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../privateFiles.js';

export const SECRET_FILE = 'secret.key';

export function serverSecret(config: Pick<Config, 'secretKey' | 'dataDir'>): string {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, SECRET_FILE);
  if (!fs.existsSync(file)) {
    ensurePrivateDir(config.dataDir);
    // Written whole to a temporary file, then linked into place: a second process starting at the
    // same moment either wins the link or reads the complete secret of the first.
    const draft = `${file}.${process.pid}.${crypto.randomUUID()}`;
    fs.writeFileSync(draft, crypto.randomBytes(32).toString('base64url'), { mode: PRIVATE_FILE_MODE });
    try {
      fs.linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.unlinkSync(draft);
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}
