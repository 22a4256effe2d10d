import {
  ADMIN_SELECT_ALL_MAX,
  parseSort,
  type AdminUserIds,
  type AdminUserListRow,
  type AdminUsersFilter,
  type AdminUsersPage,
  type adminUsersListQuerySchema,
} from '@portal/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { BadRequestError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { holdsGlobally } from '../access/access.service';
import { USER_MANAGEMENT_CODES } from '../access/grants.service';
import { listInvitations } from '../invitations/invitations.service';
import * as repo from './admin-users.repository';
import * as list from './users-list.repository';
import { actorLevel, editableBy, type Conn } from './user-detail';

/**
 * The users list at scale (spec 002 §2 Users; ARCHITECTURE §5 "Administration at scale", §11): the caller's
 * scoped users filtered by search, role, outlet, store and status, sorted by name, email or last sign-in,
 * paged (`page`, `pageSize`, with `total`) or by the earlier cursor (`cursor`, `limit`, by name); status=invited
 * lists the pending invitations the caller manages as rows of their own (search and paging apply; they
 * have no role, outlet or store filter). Also the ids of every matching row ("select all N matching") and
 * the CSV export in batches.
 */

type ListQuery = z.output<typeof adminUsersListQuerySchema>;
type ScopeKind = 'all' | 'board' | 'store' | 'outlet' | 'none';
const SCOPE_TEXT: Record<ScopeKind, string> = {
  all: 'All users with a role or an outlet (super administrator)',
  board: 'Users of the outlets and stores of your boards',
  store: 'Users of your stores and of the outlets linked to them',
  outlet: 'Users of your outlets',
  none: 'No users: you have no user management scope',
};
/** Page size of the page form when none is asked (ARCHITECTURE §5: 25/50/100). */
export const DEFAULT_PAGE_SIZE = 25;
/** Rows the export reads per query. */
const EXPORT_BATCH = 1000;

/** The widest kind of place where the caller manages users (for the list's labels). */
async function scopeKind(db: Conn, actor: Actor): Promise<ScopeKind> {
  if (holdsGlobally(actor, USER_MANAGEMENT_CODES)) return 'all';
  const held = await repo.scopeTypesHolding(db, actor.userId, USER_MANAGEMENT_CODES);
  return (['board', 'store', 'outlet'] as const).find((k) => held.includes(k)) ?? 'none';
}

const encodeCursor = (key: string, id: string) => Buffer.from(JSON.stringify([key, id])).toString('base64url');
function decodeCursor(cursor: string): { key: string; id: string } {
  try {
    const [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof key === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) return { key, id };
  } catch {
    /* fall through */
  }
  throw new BadRequestError('The cursor is not valid.', [{ path: 'cursor', message: 'The cursor is not valid.' }]);
}

const userFilter = (q: AdminUsersFilter): list.UserListFilter => ({
  search: q.search || undefined,
  role: q.role || undefined,
  outletId: q.outletId,
  storeId: q.storeId,
  status: q.status === 'invited' ? undefined : q.status,
});

/** Adds roles (with where held), outlets, status and canEdit to list rows. */
async function decorate(db: Db, actor: Actor, rows: list.UserListRow[]): Promise<AdminUserListRow[]> {
  const ids = rows.map((r) => r.id);
  const [roles, outlets, levels, level] = await Promise.all([
    repo.roleSummariesOf(db, ids),
    repo.outletsOf(db, ids),
    repo.bestLevelsOf(db, ids),
    actorLevel(db, actor),
  ]);
  return rows.map((r) => ({
    id: r.id,
    fullName: r.fullName,
    email: r.email,
    isActive: r.isActive,
    status: r.isActive ? 'active' : 'inactive',
    lastLogin: r.lastLoginAt?.toISOString() ?? null,
    outlets: outlets.get(r.id) ?? [],
    roles: roles.get(r.id) ?? [],
    canEdit: editableBy(actor, level, r.id, levels.get(r.id) ?? null),
  }));
}

/** The pending invitations the caller manages, as list rows (status invited, never editable here). */
async function invitedPage(db: Db, actor: Actor, search: string | undefined, page: number, pageSize: number) {
  const { items, total } = await listInvitations(db, actor, { status: 'pending', search, page, pageSize });
  const rows: AdminUserListRow[] = items.map((i) => ({
    id: i.id,
    fullName: [i.firstName, i.lastName].filter(Boolean).join(' ') || null,
    email: i.email,
    isActive: false,
    status: 'invited',
    lastLogin: null,
    outlets: [],
    roles: [],
    canEdit: false,
    invitation: { roleLabels: i.roleLabels, outletLabels: [...i.outletLabels, ...i.storeLabels], expiresAt: i.expiresAt },
  }));
  return { rows, total };
}

/**
 * GET /admin/users: `{ items, total, page, pageSize, nextCursor, meta }`. The page form (default) answers page
 * `page` of `pageSize` (default 25) in `sort` order (default name); the cursor form (a `cursor`, or `limit`
 * without `page`/`pageSize`) answers `limit` rows by name after the cursor, with `nextCursor`.
 */
export async function listUsers(db: Db, actor: Actor, q: ListQuery): Promise<AdminUsersPage> {
  const f = userFilter(q);
  const cursorForm = q.cursor !== undefined || (q.limit !== undefined && q.page === undefined && q.pageSize === undefined);
  const [total, currentUserRoles, kind] = await Promise.all([
    q.status === 'invited' ? Promise.resolve(0) : list.countFiltered(db, actor, f),
    repo.roleCodesOf(db, actor.userId),
    scopeKind(db, actor),
  ]);
  const meta = { scopeDescription: SCOPE_TEXT[kind], filterType: kind, currentUserRoles, userCount: total };
  if (q.status === 'invited') {
    const page = q.page ?? 1;
    const pageSize = q.pageSize ?? q.limit ?? DEFAULT_PAGE_SIZE;
    const inv = await invitedPage(db, actor, f.search, page, pageSize);
    return { items: inv.rows, total: inv.total, page, pageSize, nextCursor: null, meta: { ...meta, userCount: inv.total } };
  }
  if (cursorForm) {
    const limit = q.limit ?? 50;
    const rows = await list.usersAfter(db, actor, f, q.cursor ? decodeCursor(q.cursor) : undefined, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await decorate(db, actor, page),
      total,
      page: 1,
      pageSize: limit,
      nextCursor: rows.length > limit && last ? encodeCursor(last.sortKey, last.id) : null,
      meta,
    };
  }
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
  const rows = await list.pageOfUsers(db, actor, f, parseSort(q.sort, 'name'), { offset: (page - 1) * pageSize, limit: pageSize });
  return { items: await decorate(db, actor, rows), total, page, pageSize, nextCursor: null, meta };
}

/** GET /admin/users/ids: every matching row's id (users, or invitations with status=invited), at most ADMIN_SELECT_ALL_MAX. */
export async function userIds(db: Db, actor: Actor, q: AdminUsersFilter): Promise<AdminUserIds> {
  if (q.status === 'invited') {
    const { rows, total } = await invitedPage(db, actor, q.search || undefined, 1, ADMIN_SELECT_ALL_MAX);
    return { ids: rows.map((r) => r.id), total, truncated: total > rows.length };
  }
  const f = userFilter(q);
  const [ids, total] = await Promise.all([
    list.idsOf(db, actor, f, parseSort(q.sort, 'name'), ADMIN_SELECT_ALL_MAX),
    list.countFiltered(db, actor, f),
  ]);
  return { ids, total, truncated: total > ids.length };
}

const CSV_HEADER = ['Name', 'Email', 'Status', 'Last sign-in', 'Roles', 'Outlets'];
/** One CSV field: quoted when needed; a leading =, +, - or @ is prefixed with ' (no formula injection). */
function csvField(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
const csvLine = (fields: string[]) => `${fields.map(csvField).join(',')}\r\n`;
const exportLine = (r: AdminUserListRow) =>
  csvLine([
    r.fullName ?? '',
    r.email,
    r.status,
    r.lastLogin ?? '',
    (r.invitation?.roleLabels ?? r.roles.map((x) => `${x.name ?? x.code} (${x.scopeName ?? `${x.scopeCount} ${x.scopeType}s`})`)).join(
      '; ',
    ),
    (r.invitation?.outletLabels ?? r.outlets.map((o) => o.name)).join('; '),
  ]);

/**
 * GET /admin/users/export.csv: the rows matching the filters in the list's order, as CSV (header line, then
 * one line per row), handed to `write` in batches of 1,000 so the whole export is never held in memory.
 */
export async function exportUsers(db: Db, actor: Actor, q: AdminUsersFilter, write: (chunk: string) => void | Promise<void>) {
  await write(csvLine(CSV_HEADER));
  if (q.status === 'invited') {
    for (let page = 1; ; page++) {
      const { rows } = await invitedPage(db, actor, q.search || undefined, page, EXPORT_BATCH);
      if (rows.length) await write(rows.map(exportLine).join(''));
      if (rows.length < EXPORT_BATCH) return;
    }
  }
  const f = userFilter(q);
  const sort = parseSort(q.sort, 'name');
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const rows = await list.pageOfUsers(db, actor, f, sort, { offset, limit: EXPORT_BATCH });
    if (rows.length) await write((await decorate(db, actor, rows)).map(exportLine).join(''));
    if (rows.length < EXPORT_BATCH) return;
  }
}
