import type { Request, Response } from 'express';
import express from 'express';
import { parse } from 'csv-parse';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';

/** Most rows one bulk upsert takes (ARCHITECTURE §10). */
export const MAX_BULK_ROWS = 50_000;
const jsonParser = express.json({ limit: '16mb' });

/** CSV headers (db:import's and camelCase) → the JSON field names of a bulk row. */
const CSV_FIELDS: Record<string, string> = {
  'item number': 'itemCode',
  itemcode: 'itemCode',
  'item code': 'itemCode',
  'on hand': 'onHand',
  onhand: 'onHand',
  'bottles on hand': 'onHand',
  price: 'price',
  retail: 'retail',
  'state bottle retail': 'retail',
  'item description': 'name',
  name: 'name',
  'category name': 'category',
  category: 'category',
  pack: 'bottlesPerCase',
  bottlespercase: 'bottlesPerCase',
};

/**
 * The rows of a bulk upsert body, read after authentication: a JSON array (application/json, ≤ 16 MB)
 * or text/csv streamed through csv-parse (never buffered whole), ≤ MAX_BULK_ROWS rows. CSV numbers are
 * converted (onHand integer, price kept as text). Throws 413 / 415 / 400 (a body that is no array or no readable CSV).
 */
export async function readBulkRows(req: Request, res: Response): Promise<Record<string, unknown>[]> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  let rows: Record<string, unknown>[];
  if (type.startsWith('text/csv')) {
    rows = [];
    const parser = req.pipe(
      parse({
        columns: (h: string[]) => h.map((c) => CSV_FIELDS[c.trim().toLowerCase()] ?? c.trim()),
        bom: true,
        skip_empty_lines: true,
        trim: true,
      }),
    );
    try {
      for await (const rec of parser as AsyncIterable<Record<string, string>>) {
        if (rows.length >= MAX_BULK_ROWS) {
          req.unpipe(parser);
          throw new PayloadTooLargeError(`At most ${MAX_BULK_ROWS} rows per request`);
        }
        const onHand = rec.onHand === undefined || rec.onHand === '' ? null : /^-?\d+$/.test(rec.onHand) ? Number(rec.onHand) : rec.onHand;
        rows.push({ ...rec, onHand });
      }
    } catch (err) {
      if (err instanceof PayloadTooLargeError) throw err;
      throw new BadRequestError(`The CSV cannot be read: ${(err as Error).message}`);
    }
  } else if (type.startsWith('application/json')) {
    await new Promise<void>((ok, fail) => jsonParser(req, res, (err?: unknown) => (err ? fail(err) : ok())));
    if (!Array.isArray(req.body)) throw new BadRequestError('Send a JSON array of rows');
    rows = req.body as Record<string, unknown>[];
  } else {
    throw new UnsupportedMediaTypeError('Send application/json (an array of rows) or text/csv');
  }
  if (rows.length > MAX_BULK_ROWS) throw new PayloadTooLargeError(`At most ${MAX_BULK_ROWS} rows per request`);
  return rows;
}
