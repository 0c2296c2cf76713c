// The server secret that keys the hashes of one-time codes: SECRET_KEY when set, otherwise a random
// secret generated once into the database (table `settings`), so every instance of one database
// uses the same one whatever machine and DATA_DIR it runs on: a code asked on one instance is
// accepted by the others.
//
// Earlier releases generated the secret into DATA_DIR/secret.key. On upgrade that file is moved
// into the database once (when the database holds no secret yet), so codes already sent stay valid,
// and then removed: the secret is never again taken from a local file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { readSetting, settingOnce } from './settings.js';

/** The file earlier releases kept the generated secret in; read once on upgrade, then removed. */
export const LEGACY_SECRET_FILE = 'secret.key';

export interface SecretDeps {
  db: Knex;
  clock: Clock;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
}

// Once stored, the secret never changes: each database handle reads it once.
const loaded = new WeakMap<Knex, Promise<string>>();

function readLegacyFile(dataDir: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(dataDir, LEGACY_SECRET_FILE), 'utf8').trim();
    return text || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function removeLegacyFile(dataDir: string): void {
  try {
    fs.rmSync(path.join(dataDir, LEGACY_SECRET_FILE), { force: true });
  } catch {
    // A file left behind (e.g. a read-only DATA_DIR) is never read again once the database holds a
    // secret: nothing depends on its removal.
  }
}

async function loadSecret({ db, clock, config }: SecretDeps): Promise<string> {
  const stored = await readSetting(db, 'server_secret');
  if (stored === undefined) {
    const legacy = readLegacyFile(config.dataDir);
    const secret = await settingOnce(db, clock, 'server_secret', legacy ?? crypto.randomBytes(32).toString('base64url'));
    if (legacy !== undefined) removeLegacyFile(config.dataDir);
    return secret;
  }
  if (readLegacyFile(config.dataDir) !== undefined) removeLegacyFile(config.dataDir);
  return stored;
}

export function serverSecret(deps: SecretDeps): Promise<string> {
  if (deps.config.secretKey) return Promise.resolve(deps.config.secretKey);
  let secret = loaded.get(deps.db);
  if (!secret) {
    secret = loadSecret(deps);
    loaded.set(deps.db, secret);
    // A failed read (database down) is tried again by the next call.
    secret.catch(() => loaded.delete(deps.db));
  }
  return secret;
}
