import { migrationState, type Db, type MigrationState } from '../../db/knex';
import { unknownMigrationsGauge } from '../../http/metrics';
import type { Logger } from '../../logger';
import { ping } from './health.repository';

/** Is the database reachable? Rejects when it is not (the readiness probe answers 503). */
export async function checkDatabase(db: Db): Promise<void> {
  await ping(db);
}

/**
 * At start, after migrating: how the database's migrations stand against this release. Migrations this
 * release does not know (a newer release applied them: a rolling deploy, or this release rolled back to)
 * are not an error under expand/contract: one warning line names them and the gauge
 * portal_db_unknown_migrations counts them, and the process serves on the newer schema.
 */
export async function reportSchema(db: Db, logger: Logger): Promise<MigrationState> {
  const state = await migrationState(db);
  unknownMigrationsGauge.set(state.unknown.length);
  if (state.unknown.length) {
    logger.warn(
      { unknownMigrations: state.unknown },
      `the database has ${state.unknown.length} migration${state.unknown.length === 1 ? '' : 's'} this release does not know (a newer release applied ${state.unknown.length === 1 ? 'it' : 'them'}): serving on the newer schema`,
    );
  }
  return state;
}
