import type { Request, Response } from 'express';
import { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { CsvError, parse } from 'csv-parse';
import { PROBLEM_CODES } from '@portal/contracts';
import { AppError, BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';
import { NUL_MESSAGE, findNul } from './input-guards';
import { errorCode, errorMessage } from '../lib/errors';

/** Most rows one bulk upsert takes (ARCHITECTURE §10), counted after decoding. */
export const MAX_BULK_ROWS = 50_000;
/** Most bytes of a JSON body, after decoding (gzip, br, deflate). */
export const MAX_BULK_JSON_BYTES = 16 * 2 ** 20;
/** Most bytes of a CSV body, after decoding: 50,000 rows of the widest known shape fit with room to spare. */
export const MAX_BULK_CSV_BYTES = 64 * 2 ** 20;
/** Longest CSV record (line) csv-parse buffers (`max_record_size`): a row is a few hundred bytes. */
export const MAX_CSV_RECORD_BYTES = 64 * 1024;

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
  active: 'active',
};

/** What a route's rows must carry: the JSON field names a CSV header has to map to (e.g. itemCode, onHand). */
export interface BulkShape {
  required: string[];
  /** The CSV header to suggest in a refusal, e.g. "Item Number,On Hand". */
  example: string;
}

/**
 * The decoded body of `req`: Content-Encoding gzip (x-gzip), br or deflate is decoded on the fly (identity
 * or none passes through); any other or stacked encoding → 415. The stream errors with 400
 * `body_undecodable` when the bytes are not what the encoding says.
 */
function decoded(req: Request): Readable {
  const enc = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const decoder =
    enc === 'gzip' || enc === 'x-gzip'
      ? createGunzip()
      : enc === 'br'
        ? createBrotliDecompress()
        : enc === 'deflate'
          ? createInflate()
          : enc === 'identity' || enc === ''
            ? undefined
            : null;
  if (decoder === null) throw new UnsupportedMediaTypeError(`Content-Encoding "${enc}" is not taken: send gzip, br, deflate or none.`);
  if (!decoder) return req;
  req.on('error', (err) => decoder.destroy(err));
  decoder.on('error', () => req.unpipe(decoder));
  return req.pipe(decoder);
}

/** Is this the error of a decoder (zlib) given bytes that are not its format? */
const isZlibError = (err: unknown) => /^Z_/.test(errorCode(err) ?? '');

const undecodable = (req: Request) =>
  new BadRequestError(
    `The body is not valid ${String(req.headers['content-encoding']).trim()} data: it cannot be decoded.`,
    undefined,
    PROBLEM_CODES.bodyUndecodable,
  );
const binary = () =>
  new BadRequestError(
    'The body is binary, not text: it holds NUL bytes or bytes that are not UTF-8 (a compressed file sent without Content-Encoding?).',
    undefined,
    PROBLEM_CODES.bodyBinary,
  );
const tooLarge = (bytes: number) => new PayloadTooLargeError(`The body is larger than ${bytes / 2 ** 20} MB once decoded.`);

/**
 * Bytes → UTF-8 text, refusing what is not text (a NUL byte, an invalid UTF-8 sequence: 400 body_binary) and
 * more than `maxBytes` decoded bytes (413). The text passes on in chunks, never buffered whole.
 */
function textOnly(maxBytes: number): Transform {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(tooLarge(maxBytes));
      if (chunk.includes(0)) return done(binary());
      try {
        done(null, utf8.decode(chunk, { stream: true }));
      } catch {
        done(binary());
      }
    },
    flush(done) {
      try {
        const rest = utf8.decode();
        done(null, rest || undefined);
      } catch {
        done(binary());
      }
    },
  });
}

/**
 * The rows of a bulk upsert body, read after authentication (issue 23 §2): a JSON array (application/json) or
 * text/csv streamed through csv-parse (never buffered whole), either of them gzip, br or deflate encoded
 * (decoded on the fly and capped after decoding: 16 MB of JSON, 64 MB of CSV, 50,000 rows). A body the
 * portal cannot read is refused, never read as "no rows":
 *   - 400 `bulk_body_empty`: zero rows (`[]`, a CSV with only its header);
 *   - 400 `csv_header_unknown`: a CSV header without the columns `shape` needs (it names what it read);
 *   - 400 `body_undecodable`: bytes that are not the Content-Encoding they claim;
 *   - 400 `body_binary`: NUL bytes or invalid UTF-8 in a text body; 400 `malformed_json`: JSON that does not parse;
 *   - 400 `validation_failed`: JSON that is not an array, a CSV csv-parse cannot read;
 *   - 413 over the caps; 415 another body type or encoding.
 * CSV numbers are converted (onHand integer, price kept as text); a JSON string with U+0000 → 400 naming its row.
 */
export async function readBulkRows(req: Request, _res: Response, shape: BulkShape): Promise<Record<string, unknown>[]> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const csv = type.startsWith('text/csv');
  if (!csv && !type.startsWith('application/json'))
    throw new UnsupportedMediaTypeError('Send application/json (an array of rows) or text/csv');
  const body = decoded(req);
  let rows: Record<string, unknown>[];
  try {
    rows = csv ? await csvRows(body, shape) : await jsonRows(body);
  } catch (err) {
    // The refusal is answered on this connection: the rest of the body is read and dropped, never the socket closed.
    req.unpipe();
    if (body !== req) body.destroy();
    req.resume();
    if (err instanceof AppError) throw err;
    if (isZlibError(err)) throw undecodable(req);
    throw err;
  }
  if (!rows.length)
    throw new BadRequestError(
      csv
        ? `The CSV holds no rows, only its header: send at least one row (${shape.example}).`
        : 'The JSON array holds no rows: send at least one row.',
      undefined,
      PROBLEM_CODES.bulkBodyEmpty,
    );
  return rows;
}

async function csvRows(body: Readable, shape: BulkShape): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let header: AppError | undefined;
  const parser = parse({
    columns: (h: string[]) => {
      const names = h.map((c) => CSV_FIELDS[c.trim().toLowerCase()] ?? c.trim());
      const missing = shape.required.filter((f) => !names.includes(f));
      if (missing.length) {
        const read = h.map((c) => JSON.stringify(c.trim().slice(0, 40))).join(', ');
        header = new BadRequestError(
          `The CSV header is not one this route reads: got ${read.slice(0, 300)}; expected ${shape.example} (comma-separated, header first).`,
          missing.map((f) => ({ path: `header.${f}`, message: `No column for ${f}` })),
          PROBLEM_CODES.csvHeaderUnknown,
        );
        throw header;
      }
      return names;
    },
    bom: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_CSV_RECORD_BYTES,
  });
  const text = textOnly(MAX_BULK_CSV_BYTES);
  body.on('error', (err) => text.destroy(err));
  text.on('error', (err) => parser.destroy(err));
  body.pipe(text).pipe(parser);
  try {
    for await (const rec of parser as AsyncIterable<Record<string, string>>) {
      if (rows.length >= MAX_BULK_ROWS) throw new PayloadTooLargeError(`At most ${MAX_BULK_ROWS} rows per request`);
      const onHand = rec.onHand === undefined || rec.onHand === '' ? null : /^-?\d+$/.test(rec.onHand) ? Number(rec.onHand) : rec.onHand;
      rows.push({ ...rec, onHand });
    }
  } catch (err) {
    if (header) throw header;
    if (err instanceof AppError || isZlibError(err)) throw err;
    if (err instanceof CsvError && err.code === 'CSV_MAX_RECORD_SIZE')
      throw new PayloadTooLargeError(`A CSV record is longer than ${MAX_CSV_RECORD_BYTES / 1024} KB.`);
    throw new BadRequestError(`The CSV cannot be read: ${errorMessage(err)}`);
  } finally {
    parser.destroy();
  }
  return rows;
}

async function jsonRows(body: Readable): Promise<Record<string, unknown>[]> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_BULK_JSON_BYTES) throw tooLarge(MAX_BULK_JSON_BYTES);
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks, bytes);
  if (raw.includes(0)) throw binary();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw binary();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError('The request body is not valid JSON.', undefined, PROBLEM_CODES.malformedJson);
  }
  if (!Array.isArray(value)) throw new BadRequestError('Send a JSON array of rows');
  if (value.length > MAX_BULK_ROWS) throw new PayloadTooLargeError(`At most ${MAX_BULK_ROWS} rows per request`);
  // U+0000 can only be in JSON text as its escape: the rows are walked only when the text holds one.
  const nul = text.includes('\\u0000') ? findNul(value) : undefined;
  if (nul !== undefined) {
    const row = Number(nul.split('.')[0]) + 1;
    throw new BadRequestError(NUL_MESSAGE, [{ path: `${row}.${nul.split('.').slice(1).join('.') || 'row'}`, message: NUL_MESSAGE }]);
  }
  return value as Record<string, unknown>[];
}

/**
 * A small text body read whole after authentication (a pasted CSV: issue 27 quick order), decoded like a bulk
 * body (gzip, br, deflate; another encoding → 415): 400 `body_binary` for bytes that are not UTF-8 text, 400
 * `body_undecodable` for bytes that are not their Content-Encoding, 413 past `maxBytes` once decoded.
 */
export async function readTextBody(req: Request, maxBytes: number): Promise<string> {
  const body = decoded(req);
  const text = textOnly(maxBytes);
  body.on('error', (err) => text.destroy(err));
  let out = '';
  try {
    for await (const chunk of body.pipe(text)) out += String(chunk);
  } catch (err) {
    req.unpipe();
    if (body !== req) body.destroy();
    req.resume();
    if (err instanceof AppError) throw err;
    if (isZlibError(err)) throw undecodable(req);
    throw err;
  }
  return out;
}
