import type { Knex } from 'knex';

/**
 * Import runs whose process died are seen (issue 23 §3): `import_runs.heartbeat_at` is refreshed by the
 * API process supervising the run's importer (a child process) while it runs, so a run left `running` by
 * a process that died is marked failed once its heartbeat is stale, at startup and by a periodic sweep.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('import_runs', (t) => {
    t.timestamp('heartbeat_at', { useTz: true });
  });
  await knex.raw(`CREATE INDEX import_runs_running ON import_runs (heartbeat_at) WHERE status = 'running'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS import_runs_running');
  await knex.schema.alterTable('import_runs', (t) => {
    t.dropColumn('heartbeat_at');
  });
}
