/**
 * Reading a caught value (`catch (e)` is `unknown`): what was thrown need not be an Error.
 */

/** The message of a thrown Error, else the thrown value as a string. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The `code` of a thrown value when it has a string one (Node's `ENOENT`, zlib's `Z_DATA_ERROR`, pg's SQLSTATE), else undefined. */
export function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e)) return undefined;
  return typeof e.code === 'string' ? e.code : undefined;
}

/** The `name` of a thrown Error (e.g. fetch's `TimeoutError`), else undefined. */
export function errorName(e: unknown): string | undefined {
  return e instanceof Error ? e.name : undefined;
}
