import type { Knex } from 'knex';

/**
 * `order_events.item_json`: the event as the feed sends it (`{"seq","type","occurredAt","order"}`), written
 * once when the event is appended, so a page of the feed is the concatenation of stored text (no JSON built
 * per request). Existing rows are backfilled; a row without it (inserted by hand) is built on read.
 */
const ITEM_JSON_SQL = `json_build_object('seq', seq, 'type', type,
  'occurredAt', to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'order', payload)::text`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_events', (t) => {
    t.text('item_json');
  });
  await knex.raw(`UPDATE order_events SET item_json = ${ITEM_JSON_SQL}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_events', (t) => {
    t.dropColumn('item_json');
  });
}
