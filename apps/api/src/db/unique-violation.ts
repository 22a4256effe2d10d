/**
 * The PostgreSQL unique violation (SQLSTATE 23505) `e` is, with the violated constraint's name; undefined for any
 * other error. Services map it to their 409 (a store id or code taken, a board number taken…).
 */
export function uniqueViolation(e: unknown): { constraint: string | undefined } | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e) || e.code !== '23505') return undefined;
  return { constraint: 'constraint' in e && typeof e.constraint === 'string' ? e.constraint : undefined };
}
