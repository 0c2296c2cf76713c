// Settings every instance of one database shares (table `settings`, migration 012): what must agree
// across machines lives here, never in one machine's DATA_DIR.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';

/** The generated server secret (serverSecret.ts), the public address `labctl serve` last ran under, the laboratory's decision rule (specifications.ts). */
export type SettingKey = 'server_secret' | 'public_url' | 'decision_rule';

export async function readSetting(db: Knex, key: SettingKey): Promise<string | undefined> {
  const row: { value: string } | undefined = await db('settings').where({ key }).first('value');
  return row?.value;
}

/**
 * Stores `value` unless the key holds one already, and answers the stored value: of instances
 * starting together, the first insert wins and every one of them reads that.
 */
export async function settingOnce(db: Knex, clock: Clock, key: SettingKey, value: string): Promise<string> {
  await db('settings').insert({ key, value, updated_at: clock.now().toISOString() }).onConflict('key').ignore();
  const stored = await readSetting(db, key);
  if (stored === undefined) throw new Error(`The setting ${key} was not stored.`);
  return stored;
}

export async function writeSetting(db: Knex, clock: Clock, key: SettingKey, value: string): Promise<void> {
  await db('settings').insert({ key, value, updated_at: clock.now().toISOString() }).onConflict('key').merge(['value', 'updated_at']);
}

/**
 * Called by `labctl serve` at start: records the PUBLIC_URL it serves under, so that labctl commands
 * run without it (`labctl certificate`) put the same address in what they print. Without PUBLIC_URL
 * the server answers under whatever Host it is called by, so nothing is recorded (and an older
 * record is removed).
 */
export async function recordPublicUrl(db: Knex, clock: Clock, publicUrl: string | undefined): Promise<void> {
  if (publicUrl) await writeSetting(db, clock, 'public_url', publicUrl);
  else await db('settings').where({ key: 'public_url' }).delete();
}

/** The portal's public address: PUBLIC_URL of this process, else the one `labctl serve` recorded. */
export async function publicUrlOf(db: Knex, publicUrl: string | undefined): Promise<string | undefined> {
  return publicUrl ?? (await readSetting(db, 'public_url'));
}
