import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { OutletRequestRow as OutletRequestTable } from '../../db/tables/admin';

type Q = Db | Knex.Transaction;

/** Outlet requests (ARCHITECTURE §5, §11): a person asks to work at an outlet; those who decide list, approve and reject. */

export interface OutletRequestRow {
  id: number;
  status: 'pending' | 'approved' | 'rejected';
  userId: string;
  userEmail: string;
  userName: string | null;
  outletId: number;
  outletName: string;
  outletCode: string;
  boardName: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedByEmail: string | null;
  reason: string | null;
}

function outletRequestQuery(db: Q) {
  return db('outlet_requests as r')
    .join('users as u', 'u.id', 'r.user_id')
    .leftJoin('user_profiles as p', 'p.user_id', 'r.user_id')
    .join('outlets as o', 'o.id', 'r.outlet_id')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .leftJoin('users as d', 'd.id', 'r.decided_by');
}
/** A row of `outletRequestQuery` selecting OUTLET_REQUEST_COLUMNS. */
type OutletRequestJoined = Pick<
  OutletRequestTable,
  'id' | 'status' | 'user_id' | 'outlet_id' | 'created_at' | 'decided_at' | 'decision_reason'
> & {
  user_email: string;
  first_name: string | null;
  last_name: string | null;
  outlet_name: string;
  outlet_code: string;
  board_name: string | null;
  decided_by_email: string | null;
};
const OUTLET_REQUEST_COLUMNS = [
  'r.id',
  'r.status',
  'r.user_id',
  'u.email as user_email',
  'p.first_name',
  'p.last_name',
  'r.outlet_id',
  'o.name as outlet_name',
  'o.outlet_code',
  'b.name as board_name',
  'r.created_at',
  'r.decided_at',
  'd.email as decided_by_email',
  'r.decision_reason',
];
function toOutletRequest(r: OutletRequestJoined): OutletRequestRow {
  return {
    id: r.id,
    status: r.status,
    userId: r.user_id,
    userEmail: r.user_email,
    userName: [r.first_name, r.last_name].filter(Boolean).join(' ') || null,
    outletId: r.outlet_id,
    outletName: r.outlet_name,
    outletCode: r.outlet_code,
    boardName: r.board_name ?? null,
    createdAt: new Date(r.created_at).toISOString(),
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    decidedByEmail: r.decided_by_email ?? null,
    reason: r.decision_reason ?? null,
  };
}

/** A page of outlet requests (pending first, then newest), by status, within the manageable outlets (null: all). */
export async function listOutletRequests(
  db: Q,
  opts: { status?: string; page: number; pageSize: number; manageable: Knex.QueryBuilder | null },
) {
  const base = outletRequestQuery(db);
  if (opts.manageable) base.whereIn('r.outlet_id', opts.manageable);
  if (opts.status) base.where('r.status', opts.status);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const rows = await base
    .clone()
    .orderByRaw(`(r.status = 'pending') DESC, r.created_at DESC, r.id DESC`)
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize)
    .select<OutletRequestJoined[]>(OUTLET_REQUEST_COLUMNS);
  return { total: Number(n), items: rows.map(toOutletRequest) };
}

/** One outlet request with its labels; `lock` locks the request row FOR UPDATE. */
export async function findOutletRequest(db: Q, id: number, lock = false): Promise<OutletRequestRow | undefined> {
  if (lock) await db('outlet_requests').where({ id }).forUpdate().first('id');
  const [r] = await outletRequestQuery(db).where('r.id', id).select<OutletRequestJoined[]>(OUTLET_REQUEST_COLUMNS).limit(1);
  return r ? toOutletRequest(r) : undefined;
}

/** Records a decision on a pending request. */
export async function decideOutletRequest(
  db: Q,
  id: number,
  d: { status: 'approved' | 'rejected'; by: string; reason?: string },
): Promise<void> {
  await db('outlet_requests')
    .where({ id, status: 'pending' })
    .update({ status: d.status, decided_at: db.fn.now(), decided_by: d.by, decision_reason: d.reason ?? null });
}

/** The least privileged outlet-level role (the default of an approval): its id, or undefined. */
export async function leastOutletRole(db: Q): Promise<number | undefined> {
  const r = await db('roles')
    .where('scope_type', 'outlet')
    .orderBy([{ column: 'role_level', order: 'desc' }, { column: 'id' }])
    .first('id');
  return r?.id;
}
