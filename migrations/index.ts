import type { Knex } from 'knex';
import * as m0100 from './20261121000100_create_identity_access';
import * as m0200 from './20261121000200_create_tenancy';
import * as m0300 from './20261121000300_create_catalog';
import * as m0400 from './20261121000400_create_commerce';
import * as m0500 from './20261121000500_create_integrations_ops';
import * as m1125_0100 from './20261125000100_create_idempotency_keys';
import * as m1126_0100 from './20261126000100_tune_item_search_indexes';

type Migration = { up: (k: Knex) => Promise<void>; down: (k: Knex) => Promise<void> };

/** Every migration in order. Add a new file here too: the list is bundled into the API and used by the CLI and tests. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121000100_create_identity_access': m0100,
  '20261121000200_create_tenancy': m0200,
  '20261121000300_create_catalog': m0300,
  '20261121000400_create_commerce': m0400,
  '20261121000500_create_integrations_ops': m0500,
  '20261125000100_create_idempotency_keys': m1125_0100,
  '20261126000100_tune_item_search_indexes': m1126_0100,
};

/** A knex MigrationSource over the static list (works from source, from tests and from the bundle). */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name],
};
