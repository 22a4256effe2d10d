import type { Knex } from 'knex';

/**
 * Import runs: every import, from the browser (a pg-boss job) or the CLI (`db:import`), with
 * its status, progress (rows read of total) and per-file results (kind, created / updated / unchanged,
 * up to 100 row errors "file:line: field: reason").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_runs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('status').notNullable().defaultTo('queued');
    t.text('source').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.bigInteger('rows_read').notNullable().defaultTo(0);
    t.bigInteger('rows_total').notNullable().defaultTo(0);
    /** [{ name, kind, rows, created, updated, unchanged, errors: [] }] */
    t.jsonb('files').notNullable().defaultTo('[]');
    /** Where the uploaded files wait for the job (removed when it ends). */
    t.text('work_dir');
    t.text('error');
    t.index(['created_at']);
  });
  await knex.raw(`ALTER TABLE import_runs
    ADD CONSTRAINT import_runs_status CHECK (status IN ('queued','running','succeeded','failed')),
    ADD CONSTRAINT import_runs_source CHECK (source IN ('upload','cli')),
    ADD CONSTRAINT import_runs_rows CHECK (rows_read >= 0 AND rows_total >= 0),
    ADD CONSTRAINT import_runs_files_array CHECK (jsonb_typeof(files) = 'array')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('import_runs');
}
