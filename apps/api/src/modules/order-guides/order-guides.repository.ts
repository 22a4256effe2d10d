import type { Knex } from 'knex';
import type { SplitCasePolicy } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** Queries of order guides (issue 27, ARCHITECTURE §5 "The licensee's ordering week"); the only place with their SQL. */

type Q = Db | Knex.Transaction;

/** A guide with its store's name (dates as the driver returns them). */
export interface GuideRow {
  id: number;
  outletId: number;
  storeId: number;
  storeName: string;
  name: string;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A guide in the outlet's list, with its line count. */
export interface GuideSummaryRow extends GuideRow {
  lineCount: number;
}

/** A guide line with its item at the guide's store: name, carried (active item in the inventory), stock, rule columns. */
export interface GuideLineRow {
  itemCode: string;
  parQuantity: number;
  position: number;
  name: string | null;
  active: boolean | null;
  carried: boolean;
  stock: number | null;
  bottlesPerCase: number | null;
  minQty: number | null;
  maxQty: number | null;
  increment: number | null;
  policy: SplitCasePolicy;
}

const GUIDE_COLUMNS = [
  'g.id',
  'g.outlet_id as outletId',
  'g.store_id as storeId',
  's.name as storeName',
  'g.name',
  'g.created_by as createdBy',
  'g.created_at as createdAt',
  'g.updated_at as updatedAt',
];

/** The outlet's guides (optionally of one store), by name. */
export async function findGuides(db: Q, outletId: number, storeId?: number): Promise<GuideSummaryRow[]> {
  const q = db('order_guides as g')
    .join('stores as s', 's.id', 'g.store_id')
    .where('g.outlet_id', outletId)
    .orderBy([{ column: 'g.name' }, { column: 'g.id' }])
    .select(...GUIDE_COLUMNS, db.raw('(SELECT count(*)::int FROM order_guide_lines l WHERE l.guide_id = g.id) AS "lineCount"'));
  if (storeId !== undefined) q.where('g.store_id', storeId);
  return q;
}

/** One guide; undefined when absent. */
export async function findGuide(db: Q, id: number): Promise<GuideRow | undefined> {
  return db('order_guides as g')
    .join('stores as s', 's.id', 'g.store_id')
    .where('g.id', id)
    .first(...GUIDE_COLUMNS);
}

/** The guide's lines by position, each with its item at the guide's store (the store's board's item of that code). */
export async function findLines(db: Q, guideId: number): Promise<GuideLineRow[]> {
  return db('order_guide_lines as l')
    .join('order_guides as g', 'g.id', 'l.guide_id')
    .join('stores as s', 's.id', 'g.store_id')
    .leftJoin('items as i', function () {
      this.on('i.board_id', 's.board_id').andOn('i.code', 'l.item_code');
    })
    .leftJoin('inventory as inv', function () {
      this.on('inv.store_id', 's.id').andOn('inv.item_id', 'i.id');
    })
    .where('l.guide_id', guideId)
    .orderBy([{ column: 'l.position' }, { column: 'l.id' }])
    .select(
      'l.item_code as itemCode',
      'l.par_quantity as parQuantity',
      'l.position',
      'i.name',
      'i.active',
      db.raw('(i.id IS NOT NULL AND i.active AND inv.item_id IS NOT NULL) AS carried'),
      'inv.on_hand as stock',
      'i.bottles_per_case as bottlesPerCase',
      'i.min_order_quantity as minQty',
      'i.max_order_quantity as maxQty',
      'i.order_increment as increment',
      's.split_case_policy as policy',
    );
}

/** Inserts a guide; returns its id (a second guide of the same name in the outlet violates order_guides_outlet_name_unique). */
export async function insertGuide(db: Q, g: { outletId: number; storeId: number; name: string; createdBy: string }): Promise<number> {
  const [row] = await db('order_guides')
    .insert({ outlet_id: g.outletId, store_id: g.storeId, name: g.name, created_by: g.createdBy })
    .returning('id');
  return row.id;
}

/** Renames a guide (when `name` is given) and touches updated_at. */
export async function touchGuide(db: Q, id: number, name?: string): Promise<void> {
  await db('order_guides')
    .where({ id })
    .update({ ...(name === undefined ? {} : { name }), updated_at: db.fn.now() });
}

/** Replaces the guide's lines: the list order is the position order. */
export async function replaceLines(db: Q, guideId: number, lines: readonly { itemCode: string; parQuantity: number }[]): Promise<void> {
  await db('order_guide_lines').where({ guide_id: guideId }).del();
  if (lines.length)
    await db('order_guide_lines').insert(
      lines.map((l, position) => ({ guide_id: guideId, item_code: l.itemCode, par_quantity: l.parQuantity, position })),
    );
}

/** Deletes a guide (its lines go with it); false when it was already gone. */
export async function deleteGuide(db: Q, id: number): Promise<boolean> {
  return (await db('order_guides').where({ id }).del()) > 0;
}
