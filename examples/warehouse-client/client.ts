/**
 * Example warehouse client for the portal's REST integration (README "Warehouse integrations"): a store's
 * warehouse system pushes its stock as CSV, follows the order event feed with a saved cursor, marks orders
 * ready, and receives signed webhooks. Node built-ins and the global fetch only (Node 20+).
 *
 *   npx tsx examples/warehouse-client/client.ts <push-inventory FILE | pull-events | mark-ready ORDER_NUMBER | sync FILE | serve-webhooks>
 *
 * Every function is usable on its own (the test in apps/api/src/modules/integrations/warehouse-client.test.ts
 * drives them against the real API); the CLI at the bottom reads its settings from the environment.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the portal is and the API key to use (`bcc_<prefix>_<secret>`, shown once when created). */
export interface Connection {
  /** The portal's address, e.g. `https://portal.example.com` (with or without `/api/v1`). */
  baseUrl: string;
  apiKey: string;
}

/** The answer of an inventory upsert. */
export interface UpsertCounts {
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  dryRun: boolean;
}

/** The order snapshot carried by feed events and webhooks (the fields a warehouse usually needs; more are sent). */
export interface PortalOrder {
  id: number;
  orderNumber: string;
  status: 'reserved' | 'ready' | 'completed' | 'cancelled' | 'cancel_pending';
  storeId: number;
  outletName: string;
  customerName: string;
  fulfillmentType: 'Pickup' | 'Delivery';
  total: string;
  itemCount: number;
  unitCount: number;
  items: { itemCode: string; itemName: string; quantity: number }[];
  [field: string]: unknown;
}

/** One event of `GET /integrations/order-events`. */
export interface OrderEvent {
  seq: number;
  type: string;
  occurredAt: string;
  order: PortalOrder;
}
/** One webhook delivery body (an order event plus the delivery id). */
export interface WebhookEvent extends OrderEvent {
  id: string;
}

/** A refused call: the HTTP status and the problem+json answer (`code`, `detail`, and `errors` for 422 rows). */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly detail: string | undefined,
    readonly errors: { row?: number; field?: string; path?: string; message: string }[],
    message: string,
  ) {
    super(message);
    this.name = 'PortalError';
  }
}

const apiRoot = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * One API call with the key. Retries 429 / 503 twice, waiting Retry-After (at most 60 s). Answers the parsed
 * JSON; throws PortalError with the problem+json detail and row errors on any other non-2xx.
 */
async function call<T>(
  conn: Connection,
  method: string,
  path: string,
  opts: { body?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(apiRoot(conn.baseUrl) + path, {
      method,
      headers: {
        authorization: `Bearer ${conn.apiKey}`,
        accept: 'application/json, application/problem+json',
        ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
        ...opts.headers,
      },
      body: opts.body,
      signal: AbortSignal.timeout(60_000),
    });
    if ((res.status === 429 || res.status === 503) && attempt < 3) {
      await res.body?.cancel();
      const after = Number(res.headers.get('retry-after'));
      await sleep(Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 1000, 60_000));
      continue;
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.ok) return json as T;
    const p = (json ?? {}) as { code?: string; detail?: string; title?: string; errors?: PortalError['errors'] };
    const errors = Array.isArray(p.errors) ? p.errors : [];
    const lines = errors.slice(0, 20).map((e) => `  ${e.row !== undefined ? `row ${e.row} ` : ''}${e.field ?? e.path ?? ''}: ${e.message}`);
    if (errors.length > 20) lines.push(`  … and ${errors.length - 20} more`);
    const head = `${method} ${path} → ${res.status}${p.code ? ` ${p.code}` : ''}: ${p.detail ?? p.title ?? (text.slice(0, 200) || res.statusText)}`;
    throw new PortalError(res.status, p.code, p.detail, errors, [head, ...lines].join('\n'));
  }
}

/**
 * PUT /integrations/stores/{warehouseId}/inventory as text/csv (`Item Number,On Hand[,Price]`), from a file
 * (`csvPath`) or a string (`csv`). `mode: 'replace'` removes the store's items not in the file; `dryRun`
 * validates and counts without writing. Returns the counts; throws PortalError (422: every bad row, nothing
 * written). Sending the same CSV again answers all unchanged.
 */
export async function pushInventoryCsv(
  o: Connection & {
    warehouseId: number | string;
    csvPath?: string;
    csv?: string;
    mode?: 'merge' | 'replace';
    dryRun?: boolean;
    idempotencyKey?: string;
  },
): Promise<UpsertCounts> {
  const csv = o.csv ?? (o.csvPath !== undefined ? await readFile(o.csvPath, 'utf8') : undefined);
  if (csv === undefined) throw new Error('pushInventoryCsv: give csvPath or csv');
  const query = new URLSearchParams({ mode: o.mode ?? 'merge', ...(o.dryRun ? { dryRun: 'true' } : {}) });
  const r = await call<UpsertCounts>(o, 'PUT', `/integrations/stores/${encodeURIComponent(String(o.warehouseId))}/inventory?${query}`, {
    body: csv,
    contentType: 'text/csv; charset=utf-8',
    headers: o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {},
  });
  return { created: r.created, updated: r.updated, unchanged: r.unchanged, removed: r.removed, dryRun: r.dryRun };
}

/** The cursor saved in `file` (the last seq handled); 0 when the file does not exist yet. */
export async function readCursor(file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  if (!/^\d+$/.test(text.trim())) throw new Error(`${file} does not hold a cursor (a whole number): ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text.trim());
}

/** Saves the cursor atomically (a temporary file renamed over `file`). */
export async function saveCursor(file: string, seq: number): Promise<void> {
  await writeFile(`${file}.tmp`, `${seq}\n`);
  await rename(`${file}.tmp`, file);
}

/**
 * Follows GET /integrations/order-events from the cursor saved in `cursorFile`: pages (`limit` events each)
 * until a page is empty, saving `nextAfter` after each page, and returns the new events in seq order.
 * `handle`, when given, is awaited for each event before its page's cursor is saved: if it throws, the
 * cursor stays before that page and the next pull hands those events again (at-least-once).
 */
export async function pullOrderEvents(
  o: Connection & { cursorFile: string; limit?: number; handle?: (e: OrderEvent) => unknown },
): Promise<OrderEvent[]> {
  const events: OrderEvent[] = [];
  let after = await readCursor(o.cursorFile);
  for (;;) {
    const page = await call<{ items: OrderEvent[]; nextAfter: number }>(
      o,
      'GET',
      `/integrations/order-events?after=${after}&limit=${o.limit ?? 100}`,
    );
    if (!page.items.length) return events;
    if (!(page.nextAfter > after)) throw new Error(`The feed did not move past ${after}`);
    for (const e of page.items) {
      await o.handle?.(e);
      events.push(e);
    }
    await saveCursor(o.cursorFile, page.nextAfter);
    after = page.nextAfter;
  }
}

/**
 * POST /integrations/orders/{orderNumber}/status: `ready`, `completed`, or `cancelled` with a reason. Returns
 * the order; throws PortalError (409 `order_*` naming the current status when the move is not allowed, 404
 * for an order of another store).
 */
export async function setOrderStatus(
  o: Connection & { orderNumber: string; status: 'ready' | 'completed' | 'cancelled'; reason?: string; idempotencyKey?: string },
): Promise<PortalOrder> {
  return call<PortalOrder>(o, 'POST', `/integrations/orders/${encodeURIComponent(o.orderNumber)}/status`, {
    body: JSON.stringify({ status: o.status, ...(o.reason ? { reason: o.reason } : {}) }),
    contentType: 'application/json',
    headers: o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {},
  });
}

/** Marks a reserved order ready (picked and packed); returns the order. Throws PortalError 409 if it is not reserved. */
export function markReady(o: Connection & { orderNumber: string }): Promise<PortalOrder> {
  return setOrderStatus({ ...o, status: 'ready' });
}

/**
 * true when `header` (Portal-Signature: `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + rawBody)>`) signs
 * `rawBody` (the bytes as received, before any JSON parsing) with `secret` and `t` is within
 * `toleranceSeconds` (5 minutes) of `now` (unix seconds). Compares in constant time.
 */
export function verifySignature(
  secret: string,
  rawBody: string | Buffer,
  header: string | string[] | null | undefined,
  now = Date.now() / 1000,
  toleranceSeconds = 300,
): boolean {
  if (typeof header !== 'string') return false;
  let t: string | undefined;
  const sigs: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't') t = v;
    else if (k === 'v1' && /^[0-9a-f]{64}$/i.test(v ?? '')) sigs.push(v);
  }
  if (!t || !/^\d{1,12}$/.test(t) || !sigs.length || Math.abs(now - Number(t)) > toleranceSeconds) return false;
  const want = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return sigs.some((s) => timingSafeEqual(want, Buffer.from(s, 'hex')));
}

export interface WebhookServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * A node:http webhook receiver on `port` (0: any free port; `host` default all interfaces). For each POST
 * it reads the raw body (at most `maxBodyBytes`, else 413) and checks Portal-Signature: missing, bad or
 * stale → 401 and `onEvent` is not called; good → `onEvent(event)` is awaited and 204 answered (500 if it
 * throws, so the portal retries). Other methods → 405. Repeated deliveries carry the same `seq`.
 */
export function serveWebhooks(o: {
  port: number;
  host?: string;
  secret: string;
  onEvent: (e: WebhookEvent) => unknown;
  /** Told of each refused request (status and why), e.g. to log a wrong secret. */
  onRefused?: (status: number, reason: string) => void;
  onError?: (err: unknown) => void;
  maxBodyBytes?: number;
}): Promise<WebhookServer> {
  const refuse = (res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}) => {
    o.onRefused?.(status, reason);
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`${reason}\n`);
  };
  const max = o.maxBodyBytes ?? 1_000_000;
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      refuse(res, 405, `${req.method} is not allowed`, { allow: 'POST' });
      return;
    }
    readBody(req, max).then(
      async (raw) => {
        if (raw === null) {
          refuse(res, 413, `body over ${max} bytes`, { connection: 'close' });
          return;
        }
        const sig = req.headers['portal-signature'];
        if (!verifySignature(o.secret, raw, sig)) {
          refuse(res, 401, sig ? 'bad or stale Portal-Signature' : 'no Portal-Signature');
          return;
        }
        let event: WebhookEvent;
        try {
          event = JSON.parse(raw.toString('utf8')) as WebhookEvent;
        } catch {
          refuse(res, 400, 'body is not JSON');
          return;
        }
        try {
          await o.onEvent(event);
          res.writeHead(204).end();
        } catch (err) {
          o.onError?.(err);
          res.writeHead(500).end();
        }
      },
      (err) => {
        o.onError?.(err);
        res.destroy();
      },
    );
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port, o.host, () => {
      server.off('error', fail);
      const port = (server.address() as AddressInfo).port;
      ok({
        server,
        port,
        url: `http://${o.host && o.host !== '0.0.0.0' && o.host !== '::' ? o.host : '127.0.0.1'}:${port}/`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** The whole body as bytes, or null when it exceeds `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on('end', () => ok(over ? null : Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

// ---------------------------------------------------------------------------------------------------------
// CLI

const USAGE = `usage: npx tsx examples/warehouse-client/client.ts <command>

  push-inventory FILE [--dry-run] [--replace]  PUT the CSV (Item Number,On Hand) as WAREHOUSE_ID's stock
  pull-events                                  print the order events after CURSOR_FILE's seq, save the new cursor
  mark-ready ORDER_NUMBER                      mark a reserved order ready
  sync FILE                                    push-inventory FILE, then mark every new order.created ready
  serve-webhooks                               receive signed webhooks on WEBHOOK_PORT, checked with WEBHOOK_SECRET

env: PORTAL_URL (http://localhost:3000), PORTAL_API_KEY, WAREHOUSE_ID, CURSOR_FILE (.warehouse-cursor),
     WEBHOOK_SECRET, WEBHOOK_PORT (8787)`;

const out = (line: string) => process.stdout.write(`${line}\n`);
function env(name: string, fallback?: string): string {
  const v = process.env[name] ?? fallback;
  if (!v) throw new Error(`Set ${name} (see --help)`);
  return v;
}
const counts = (c: UpsertCounts) =>
  `created ${c.created}, updated ${c.updated}, unchanged ${c.unchanged}, removed ${c.removed}${c.dryRun ? ' (dry run: nothing written)' : ''}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const summary = (e: OrderEvent) =>
  `#${e.seq} ${e.type.padEnd(15)} ${e.order.orderNumber}  ${e.order.status.padEnd(9)} ${e.order.fulfillmentType} for ${e.order.outletName}: ` +
  `${plural(e.order.itemCount, 'line')}, ${plural(e.order.unitCount, 'bottle')}, $${e.order.total}`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...args] = argv;
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const [arg] = args.filter((a) => !a.startsWith('--'));
  if (cmd === '--help' || cmd === 'help') {
    out(USAGE);
    return 0;
  }
  if (!cmd) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const conn = (): Connection => ({ baseUrl: env('PORTAL_URL', 'http://localhost:3000'), apiKey: env('PORTAL_API_KEY') });
  const cursorFile = env('CURSOR_FILE', '.warehouse-cursor');
  const push = async (file: string) => {
    const c = await pushInventoryCsv({
      ...conn(),
      warehouseId: env('WAREHOUSE_ID'),
      csvPath: file,
      mode: flags.has('--replace') ? 'replace' : 'merge',
      dryRun: flags.has('--dry-run'),
    });
    out(`inventory ${file} → store ${env('WAREHOUSE_ID')}: ${counts(c)}`);
  };
  switch (cmd) {
    case 'push-inventory':
      if (!arg) break;
      await push(arg);
      return 0;
    case 'pull-events': {
      const from = await readCursor(cursorFile);
      const events = await pullOrderEvents({ ...conn(), cursorFile, handle: (e) => out(summary(e)) });
      out(
        events.length
          ? `${plural(events.length, 'event')}; cursor ${from} → ${events[events.length - 1].seq} saved to ${cursorFile}`
          : `no new events after ${from}`,
      );
      return 0;
    }
    case 'mark-ready': {
      if (!arg) break;
      const o = await markReady({ ...conn(), orderNumber: arg });
      out(`${o.orderNumber} is ${o.status}${o.readyAt ? ` (ready at ${String(o.readyAt)})` : ''}`);
      return 0;
    }
    case 'sync': {
      if (!arg) break;
      await push(arg);
      let ready = 0;
      let skipped = 0;
      const events = await pullOrderEvents({
        ...conn(),
        cursorFile,
        handle: async (e) => {
          if (e.type !== 'order.created') return;
          try {
            await markReady({ ...conn(), orderNumber: e.order.orderNumber });
            ready++;
            out(`${e.order.orderNumber} marked ready (${plural(e.order.unitCount, 'bottle')} for ${e.order.outletName})`);
          } catch (err) {
            if (!(err instanceof PortalError) || err.status !== 409) throw err; // the cursor stays: the next sync retries
            skipped++;
            out(`${e.order.orderNumber} skipped: ${err.detail ?? err.message}`);
          }
        },
      });
      out(`sync done: ${plural(events.length, 'new event')}, ${ready} marked ready, ${skipped} skipped; cursor in ${cursorFile}`);
      return 0;
    }
    case 'serve-webhooks': {
      const seen = new Set<number>();
      const s = await serveWebhooks({
        port: Number(env('WEBHOOK_PORT', '8787')),
        host: process.env.WEBHOOK_HOST,
        secret: env('WEBHOOK_SECRET'),
        onEvent: (e) => {
          out(`${seen.has(e.seq) ? '(repeat) ' : ''}${summary(e)}`);
          seen.add(e.seq);
        },
        onRefused: (status, reason) => process.stderr.write(`refused a request: ${status} ${reason}\n`),
        onError: (err) => process.stderr.write(`webhook handler failed: ${(err as Error).message}\n`),
      });
      out(`listening for webhooks on port ${s.port} (Ctrl-C to stop)`);
      await new Promise<void>((done) => {
        const stop = () => void s.close().then(done);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      out(`stopped (${plural(seen.size, 'event')} received)`);
      return 0;
    }
    default:
      process.stderr.write(`unknown command ${cmd}\n\n`);
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

// Run as a script (`tsx client.ts …`), not when imported.
if (/warehouse-client[\\/]client\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
