// Settings from the environment (and `labctl serve` flags), validated once at start-up. Every bad
// value is reported together so an operator fixes them in one go.
import path from 'node:path';
import { z } from 'zod';

const intFrom = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const ConfigSchema = z.object({
  PORT: intFrom(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?|sqlite):\/\//, 'must start with postgres://, postgresql:// or sqlite://')
    .optional(),
  // The owner of the tables, for `labctl migrate` only; DATABASE_URL is then the portal's own role,
  // which the migrations grant what it needs and no more (docs/deploy.md section 4).
  MIGRATION_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('laboratory@localhost'),
  PUBLIC_URL: z.url().optional(),
  LAB_NAME: z.string().min(1).default('National Meat Inspection Service'),
  LAB_SHORT_NAME: z.string().min(1).default('NMIS'),
  LAB_ADDRESS: z.string().min(1).max(300).default('4 Visayas Avenue, Vasra, Quezon City 1128, Philippines'),
  SESSION_IDLE_MINUTES: intFrom(1, 7 * 24 * 60).default(60),
  SESSION_MAX_HOURS: intFrom(1, 30 * 24).default(12),
  // Only behind a reverse proxy that sets X-Forwarded-For/-Proto: otherwise any caller could forge them.
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  SECRET_KEY: z.string().min(32, 'use at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: readable lines on a terminal, JSON otherwise for `labctl serve` (server/logger.ts).
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

export type RawConfig = z.input<typeof ConfigSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { client: 'sqlite3'; filename: string } | { client: 'pg'; connectionString: string; searchPath?: string };
  /** The owner's connection that migrations run on, when it is not `database`'s role (PostgreSQL only). */
  migrationDatabase?: { client: 'pg'; connectionString: string };
  smtpUrl?: string;
  mailFrom: string;
  publicUrl?: string;
  trustProxy: boolean;
  /** Keys the hashes of one-time codes; unset: a secret generated once into the database (services/serverSecret.ts). */
  secretKey?: string;
  labName: string;
  labShortName: string;
  /** Printed under the laboratory's name on certificates of analysis. */
  labAddress: string;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  logLevel: string;
  logFormat?: 'json' | 'pretty';
  demo: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads settings from `env` (normally process.env) with `overrides` (CLI flags) taking precedence. */
export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<Record<keyof RawConfig, string>> = {}): Config {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = overrides[key as keyof RawConfig] ?? env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message} (got ${JSON.stringify(raw[String(i.path[0])])})`));
  }
  const c = parsed.data;
  if (c.MIGRATION_DATABASE_URL && !(c.DATABASE_URL?.startsWith('postgres') && loginRoleOf(c.DATABASE_URL))) {
    throw new ConfigError([`MIGRATION_DATABASE_URL: needs DATABASE_URL to be a postgres:// address with the portal's role as its user (got ${JSON.stringify(c.DATABASE_URL ?? '')})`]);
  }
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir,
    database: databaseSettings(c.DATABASE_URL, dataDir),
    migrationDatabase: c.MIGRATION_DATABASE_URL ? { client: 'pg', connectionString: c.MIGRATION_DATABASE_URL } : undefined,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM,
    publicUrl: c.PUBLIC_URL,
    trustProxy: c.TRUST_PROXY,
    secretKey: c.SECRET_KEY,
    labName: c.LAB_NAME,
    labShortName: c.LAB_SHORT_NAME,
    labAddress: c.LAB_ADDRESS,
    sessionIdleMinutes: c.SESSION_IDLE_MINUTES,
    sessionMaxHours: c.SESSION_MAX_HOURS,
    logLevel: c.LOG_LEVEL,
    logFormat: c.LOG_FORMAT,
    demo: c.DEMO,
  };
}

function databaseSettings(url: string | undefined, dataDir: string): Config['database'] {
  if (!url) return { client: 'sqlite3', filename: path.join(dataDir, 'lab.sqlite') };
  if (url.startsWith('sqlite://')) return { client: 'sqlite3', filename: path.resolve(url.slice('sqlite://'.length)) };
  return { client: 'pg', connectionString: url };
}

/** The role a postgres:// address logs in as, or undefined when it names none. */
export function loginRoleOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).username) || undefined;
  } catch {
    return undefined;
  }
}

/** A description of the database without credentials, for logs and the CLI. */
export function describeDatabase(db: Config['database']): string {
  if (db.client === 'sqlite3') return `SQLite ${db.filename}`;
  const u = new URL(db.connectionString);
  return `PostgreSQL ${u.hostname}:${u.port || 5432}${u.pathname}`;
}
