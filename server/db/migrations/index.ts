// Migrations are imported, not discovered on disk, so the same list runs from TypeScript sources
// (tests, dev) and from the compiled dist/ (labctl) without file-extension tricks.
import type { Knex } from 'knex';
import * as m001 from './001_initial.js';
import * as m002 from './002_list_indexes.js';
import * as m004 from './004_certificates.js';
import * as m005 from './005_reception.js';
import * as m006 from './006_mail_outbox.js';
import * as m007 from './007_report_counts.js';
import * as m008 from './008_list_search_indexes.js';
import * as m009 from './009_client_address_withdrawals.js';
import * as m010 from './010_perf_indexes.js';
import * as m011 from './011_audit_truncate.js';
import * as m012 from './012_settings.js';
import * as m013 from './013_request_progress.js';
import * as m014 from './014_change_versions.js';
import * as m015 from './015_turnaround_paging.js';
import * as m016 from './016_audit_trail.js';
import * as m017 from './017_request_search.js';
import * as m018 from './018_version_triggers.js';
import * as m019 from './019_specifications.js';
import * as m020 from './020_turnaround_weeks.js';
import * as m021 from './021_earlier_versions.js';
import * as m022 from './022_progress_conformity.js';
import * as m023 from './023_sample_species.js';
import * as m024 from './024_progress_counts.js';
import * as m025 from './025_analyses_write_indexes.js';
import * as m026 from './026_version_marks_per_request.js';
import * as m027 from './027_wider_windows.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_list_indexes': m002,
  '004_certificates': m004,
  '005_reception': m005,
  '006_mail_outbox': m006,
  '007_report_counts': m007,
  '008_list_search_indexes': m008,
  '009_client_address_withdrawals': m009,
  '010_perf_indexes': m010,
  '011_audit_truncate': m011,
  '012_settings': m012,
  '013_request_progress': m013,
  '014_change_versions': m014,
  '015_turnaround_paging': m015,
  '016_audit_trail': m016,
  '017_request_search': m017,
  '018_version_triggers': m018,
  '019_specifications': m019,
  '020_turnaround_weeks': m020,
  '021_earlier_versions': m021,
  '022_progress_conformity': m022,
  '023_sample_species': m023,
  '024_progress_counts': m024,
  '025_analyses_write_indexes': m025,
  '026_version_marks_per_request': m026,
  '027_wider_windows': m027,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name],
};
