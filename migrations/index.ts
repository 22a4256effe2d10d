import type { Knex } from 'knex';
import * as m0100 from './20261121000100_create_identity_access';
import * as m0200 from './20261121000200_create_tenancy';
import * as m0300 from './20261121000300_create_catalog';
import * as m0400 from './20261121000400_create_commerce';
import * as m0500 from './20261121000500_create_integrations_ops';
import * as m1125_0100 from './20261125000100_create_idempotency_keys';
import * as m1126_0100 from './20261126000100_tune_item_search_indexes';
import * as m1127_0601 from './2026112700060001_create_import_runs';
import * as m1127_0602 from './2026112700060002_narrow_item_view_permissions';
import * as m1127_0100 from './20261127000100_create_payment_settlement';
import * as m1127_0401 from './2026112700040001_extend_invitations';
import * as m1127_0201 from './2026112700020001_index_expiry_columns';
import * as m1127_0501 from './2026112700050001_index_audit_log_entities';
import * as m1127_0701 from './2026112700070001_create_order_lifecycle_integrations';
import * as m1128_0101 from './2026112800010001_order_events_item_json';
import * as m1129_0101 from './2026112900010001_cache_change_notifications';
import * as m1129_0102 from './2026112900010002_order_event_notifications';
import * as m1130_0101 from './2026113000010001_create_role_grants';
import * as m1130_0201 from './2026113000020001_record_refunds';
import * as m1130_0202 from './2026113000020002_track_import_runners';
import * as m1130_0203 from './2026113000020003_create_feed_identity';
import * as m1130_0401 from './2026113000040001_add_webhook_delivery_errors';
import * as m1130_0402 from './2026113000040002_create_rate_limits';
import * as m1130_0403 from './2026113000040003_add_test_events';
import * as m1130_0501 from './2026113000050001_lease_integration_requests';
import * as m1201_0101 from './2026120100010001_admin_list_indexes';
import * as m1201_0301 from './2026120100030001_phone_sign_in';
import * as m1201_0401 from './2026120100040001_ordering_week';
import * as m1201_0601 from './2026120100060001_ordering_week_schedules_claims';
import * as m1201_0801 from './2026120100080001_order_events_horizon';
import * as m1201_0802 from './2026120100080002_catalog_versions';
import * as m1201_0803 from './2026120100080003_order_list_indexes';
import * as m1201_1001 from './2026120100100001_store_order_counts';
import * as m1201_1002 from './2026120100100002_order_search';
import * as m1201_1101 from './2026120100110001_principal_change_notifications';

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
  '2026112700060001_create_import_runs': m1127_0601,
  '2026112700060002_narrow_item_view_permissions': m1127_0602,
  '20261127000100_create_payment_settlement': m1127_0100,
  '2026112700040001_extend_invitations': m1127_0401,
  '2026112700020001_index_expiry_columns': m1127_0201,
  '2026112700050001_index_audit_log_entities': m1127_0501,
  '2026112700070001_create_order_lifecycle_integrations': m1127_0701,
  '2026112800010001_order_events_item_json': m1128_0101,
  '2026112900010001_cache_change_notifications': m1129_0101,
  '2026112900010002_order_event_notifications': m1129_0102,
  '2026113000010001_create_role_grants': m1130_0101,
  '2026113000020001_record_refunds': m1130_0201,
  '2026113000020002_track_import_runners': m1130_0202,
  '2026113000020003_create_feed_identity': m1130_0203,
  '2026113000040001_add_webhook_delivery_errors': m1130_0401,
  '2026113000040002_create_rate_limits': m1130_0402,
  '2026113000040003_add_test_events': m1130_0403,
  '2026113000050001_lease_integration_requests': m1130_0501,
  '2026120100010001_admin_list_indexes': m1201_0101,
  '2026120100030001_phone_sign_in': m1201_0301,
  '2026120100040001_ordering_week': m1201_0401,
  '2026120100060001_ordering_week_schedules_claims': m1201_0601,
  '2026120100080001_order_events_horizon': m1201_0801,
  '2026120100080002_catalog_versions': m1201_0802,
  '2026120100080003_order_list_indexes': m1201_0803,
  '2026120100100001_store_order_counts': m1201_1001,
  '2026120100100002_order_search': m1201_1002,
  '2026120100110001_principal_change_notifications': m1201_1101,
};

/** A knex MigrationSource over the static list (works from source, from tests and from the bundle). */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name],
};
