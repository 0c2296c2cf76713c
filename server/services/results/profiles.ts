// The instrument import profiles on disk: those shipped in the package's profiles/ folder and the
// laboratory's own in DATA_DIR/profiles/ (one JSON file each; a custom profile of a shipped name
// replaces it). Each file is checked with InstrumentProfileSchema when it is read.
import fs from 'node:fs';
import path from 'node:path';
import { InstrumentProfileSchema, type InstrumentProfile } from '../../domain/instrumentProfile.js';
import { badRequest } from '../../errors.js';
import { packageRoot } from '../../packageRoot.js';
import { describeIssues } from '../../validation.js';

export type ProfileSource = 'shipped' | 'custom';

export interface ProfileFile {
  source: ProfileSource;
  file: string;
  /** The profile, or why the file is not one. */
  profile?: InstrumentProfile;
  problem?: string;
}

export const shippedProfilesDir = () => path.join(packageRoot(), 'profiles');
export const customProfilesDir = (dataDir: string) => path.join(dataDir, 'profiles');

function readDir(dir: string, source: ProfileSource): ProfileFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.map((name) => {
    const file = path.join(dir, name);
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      return { source, file, problem: `not JSON: ${(err as Error).message}` };
    }
    const parsed = InstrumentProfileSchema.safeParse(json);
    return parsed.success ? { source, file, profile: parsed.data } : { source, file, problem: describeIssues(parsed.error) };
  });
}

/** Every profile file, shipped first, then custom; a custom profile hides a shipped one of its name. */
export function listProfiles(dataDir: string): ProfileFile[] {
  const custom = readDir(customProfilesDir(dataDir), 'custom');
  const customNames = new Set(custom.map((p) => p.profile?.name));
  return [...readDir(shippedProfilesDir(), 'shipped').filter((p) => !customNames.has(p.profile?.name)), ...custom];
}

/** The profile called `name`, or a 400 naming the profiles there are (and a broken file of that name). */
export function findProfile(dataDir: string, name: string): InstrumentProfile & { file: string } {
  const files = listProfiles(dataDir);
  const found = files.find((p) => p.profile?.name === name);
  if (found) return { ...found.profile!, file: found.file };
  const broken = files.find((p) => p.problem && path.basename(p.file, '.json') === name);
  if (broken) throw badRequest(`Profile ${name} (${broken.file}) is not valid: ${broken.problem}`);
  const names = files.flatMap((p) => (p.profile ? [p.profile.name] : []));
  throw badRequest(`No import profile is called ${JSON.stringify(name)}; there are ${names.join(', ') || 'none'} (labctl results profiles lists them).`);
}
