import type { Knex } from 'knex';

/**
 * The admin Items tab's permissions (spec 002 §6: bcc.items.view / bcc.item.view, "items tab") belong to
 * the roles that reach /admin or browse without a cart (store staff); outlet roles shop with
 * bcc.carts.use and never needed them. The outlet manager, buyer and viewer roles lose them, so a buyer
 * cannot read the board's whole catalog through /admin/items. Roles an administrator created
 * are left alone.
 */
const ROLES = ['outlet_manager', 'outlet_buyer', 'outlet_viewer'];
const CODES = ['bcc.items.view', 'bcc.item.view'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `DELETE FROM role_permissions rp USING roles r, permissions p
     WHERE rp.role_id = r.id AND rp.permission_id = p.id AND r.code = ANY(?) AND p.code = ANY(?)`,
    [ROLES, CODES],
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r CROSS JOIN permissions p WHERE r.code = ANY(?) AND p.code = ANY(?)
     ON CONFLICT DO NOTHING`,
    [ROLES, CODES],
  );
}
