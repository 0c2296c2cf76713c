// Migrations are imported, not discovered on disk, so the same list runs from TypeScript sources
// (tests, dev) and from the compiled dist/ (labctl) without file-extension tricks.
import type { Knex } from 'knex';
import * as m001 from './001_initial.js';
import * as m002 from './002_list_indexes.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_list_indexes': m002,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name],
};
