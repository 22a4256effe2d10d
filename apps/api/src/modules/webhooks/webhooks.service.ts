import { createHmac, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError } from '../../http/errors';
import { webhookDeliveries } from '../../http/metrics';
import type { Actor } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import { assertScope, integrationReach } from '../access/integration-scope';
import type { WebhookEndpointRow } from '../../db/tables/integrations';
import * as repo from './webhooks.repository';
import { postPinned, type CheckedAddress, type ReceiverAnswer } from './pinned-post';
import { enqueueAgain } from './webhook-queue';

/**
 * Signed webhooks (ARCHITECTURE §10, issue 14 §5): endpoints per store or board with chosen event types,
 * one delivery per event per endpoint (pg-boss job, jobs/webhook-jobs.ts), signed with
 * `Portal-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, every attempt logged.
 */

/** `t=<unix>,v1=<hex>` for `body` at `t` (seconds). */
export function signWebhook(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

let allowHosts: readonly string[] = [];

/** Sets the SSRF guard's allowed hosts (config.webhookAllowHosts, WEBHOOK_ALLOW_HOSTS; app.ts at composition). */
export function setWebhookAllowHosts(hosts: readonly string[]): void {
  allowHosts = hosts;
}

/**
 * SSRF guard: in production a webhook URL must resolve to public unicast addresses only (loopback,
 * private, link-local refused) unless its host is in WEBHOOK_ALLOW_HOSTS (config.webhookAllowHosts, set by `setWebhookAllowHosts`). Throws 400 validation_failed (field `url`).
 * Answers the address to connect to (the first one checked), so the sender connects to exactly what was
 * checked (pinnedLookup); undefined outside production and for allow-listed hosts (resolved as usual).
 */
export async function assertSafeUrl(url: string, production: boolean): Promise<CheckedAddress | undefined> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw bad('Enter a valid http(s) URL');
  }
  if (!/^https?:$/.test(u.protocol)) throw bad('Enter a valid http(s) URL');
  if (!production) return undefined;
  if (allowHosts.includes(u.hostname)) return undefined;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addrs = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (!addrs.length || addrs.some((a) => ipaddr.process(a).range() !== 'unicast'))
    throw bad('This URL points to a private or local address');
  const first = ipaddr.process(addrs[0]);
  return { address: first.toString(), family: first.kind() === 'ipv6' ? 6 : 4 };
}
const bad = (message: string) => new BadRequestError(message, [{ path: 'url', message }]);

const view = (r: WebhookEndpointRow) => ({
  id: r.id,
  url: r.url,
  storeId: r.store_id,
  boardId: r.board_id,
  events: r.events,
  active: r.active,
  createdAt: new Date(r.created_at).toISOString(),
});

/** Endpoint `id` if `a` manages it (404 otherwise). */
async function findOwn(db: Db, a: Actor, id: string): Promise<WebhookEndpointRow> {
  const row = await repo.findEndpoint(db, id, integrationReach(db, a));
  if (!row) throw new NotFoundError('Webhook not found');
  return row;
}

/** GET /admin/webhooks: the endpoints of the caller's stores and boards, newest first (never the secret). */
export async function listWebhooks(db: Db, a: Actor) {
  return { items: (await repo.listEndpoints(db, integrationReach(db, a))).map(view) };
}

/** POST /admin/webhooks: the 201 answer carries the signing `secret` (shown once). Audited. */
export async function createWebhook(
  db: Db,
  a: Actor,
  input: { url: string; storeId?: number | null; boardId?: number | null; events: string[] },
  production: boolean,
  ip: string | null,
) {
  await assertScope(db, a, input);
  await assertSafeUrl(input.url, production);
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (trx) => {
    const row = await repo.insertEndpoint(trx, {
      url: input.url,
      secret,
      store_id: input.storeId ?? null,
      board_id: input.storeId ? null : (input.boardId ?? null),
      events: input.events,
      created_by: a.userId,
    });
    await recordAudit(
      trx,
      { userId: a.userId },
      { action: 'webhook.created', entityType: 'webhook', entityId: row.id, ip, details: { url: input.url, events: input.events } },
    );
    return { ...view(row), secret };
  });
}

/** PATCH /admin/webhooks/{id}: url (SSRF-checked), events, active (404 outside the caller's reach). Audited. */
export async function updateWebhook(
  db: Db,
  a: Actor,
  id: string,
  input: { url?: string; events?: string[]; active?: boolean },
  production: boolean,
  ip: string | null,
) {
  await findOwn(db, a, id);
  if (input.url) await assertSafeUrl(input.url, production);
  return db.transaction(async (trx) => {
    const row = await repo.updateEndpoint(trx, id, {
      ...(input.url ? { url: input.url } : {}),
      ...(input.events ? { events: input.events } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
    });
    await recordAudit(trx, { userId: a.userId }, { action: 'webhook.updated', entityType: 'webhook', entityId: id, ip, details: input });
    return view(row);
  });
}

/** DELETE /admin/webhooks/{id}: the endpoint and its delivery log (404 outside the caller's reach). Audited. */
export async function deleteWebhook(db: Db, a: Actor, id: string, ip: string | null): Promise<void> {
  await findOwn(db, a, id);
  await db.transaction(async (trx) => {
    await repo.deleteEndpoint(trx, id);
    await recordAudit(trx, { userId: a.userId }, { action: 'webhook.deleted', entityType: 'webhook', entityId: id, ip });
  });
}

/**
 * GET /admin/webhooks/{id}/deliveries: newest first, with the event, status, attempts, and of the last attempt
 * the receiver's HTTP status, the duration and the error (the receiver's answer or the network error).
 */
export async function listDeliveries(db: Db, a: Actor, id: string) {
  await findOwn(db, a, id);
  const rows = await repo.listDeliveries(db, id);
  return {
    items: rows.map((r) => ({
      ...r,
      seq: Number(r.seq),
      createdAt: new Date(r.createdAt).toISOString(),
      deliveredAt: r.deliveredAt ? new Date(r.deliveredAt).toISOString() : null,
    })),
  };
}

/** POST /admin/webhooks/{id}/deliveries/{deliveryId}/redeliver: queued again (status pending). */
export async function redeliver(db: Db, a: Actor, id: string, deliveryId: string, ip: string | null): Promise<void> {
  await findOwn(db, a, id);
  if (!(await repo.deliveryExists(db, id, deliveryId))) throw new NotFoundError('Delivery not found');
  await db.transaction(async (trx) => {
    await repo.markPending(trx, deliveryId);
    await recordAudit(
      trx,
      { userId: a.userId },
      { action: 'webhook.redelivered', entityType: 'webhook', entityId: id, ip, details: { deliveryId } },
    );
    await enqueueAgain(trx, deliveryId);
  });
}

/**
 * One delivery attempt: POSTs the event (`{ id, seq, type, occurredAt, test?, order }`) signed with the endpoint's
 * secret, logs the attempt (status, duration), marks the delivery delivered on 2xx. Returns whether it was
 * delivered (the job retries otherwise). `production` applies the SSRF guard again at send time and connects
 * to the very address it checked (no second DNS lookup: DNS rebinding cannot reach loopback).
 */
export async function deliverOnce(db: Db, deliveryId: string, production: boolean, timeoutMs = 10_000): Promise<boolean> {
  const d = await repo.findDeliveryToSend(db, deliveryId);
  if (!d || d.status === 'delivered' || !d.active) return true;
  const body = JSON.stringify({
    id: deliveryId,
    seq: Number(d.seq),
    type: d.type,
    occurredAt: new Date(d.occurred_at).toISOString(),
    // A synthetic event of POST /integrations/test-events says so.
    ...(d.test ? { test: true } : {}),
    order: d.payload,
  });
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    // The address checked is the one connected to (a second DNS answer could point at loopback).
    const pinned = await assertSafeUrl(d.url, production);
    const res = await postPinned(
      d.url,
      {
        'content-type': 'application/json',
        'portal-signature': signWebhook(d.secret, body),
        'portal-event': d.type,
        'portal-delivery': deliveryId,
      },
      body,
      { timeoutMs, pinned, keepBytes: RECEIVER_TEXT_BYTES },
    );
    status = res.status;
    if (status < 200 || status >= 300) error = receiverError(res);
  } catch (err) {
    error = (err instanceof Error ? err.message : String(err)).slice(0, 300);
  }
  const ok = status !== null && status >= 200 && status < 300;
  const duration = Date.now() - started;
  await db.transaction((trx) =>
    repo.recordAttempt(trx, { delivery_id: deliveryId, status_code: status, duration_ms: duration, error }, ok),
  );
  webhookDeliveries.inc({ outcome: ok ? 'delivered' : 'failed' });
  return ok;
}

/** Bytes of a refusing receiver's body kept in the delivery log. */
const RECEIVER_TEXT_BYTES = 500;

/**
 * What a receiver that did not answer 2xx said, for the delivery log: `HTTP <status> <statusText>: <the
 * first 500 bytes of its body>` (whitespace collapsed; the rest of the body is not read).
 */
function receiverError(res: ReceiverAnswer): string {
  const text = res.text.replace(/\s+/g, ' ').trim();
  const head = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  return (text ? `${head}: ${text}` : head).slice(0, 1000);
}

/** Marks a delivery failed (its retries are over). */
export async function markFailed(db: Db, deliveryId: string): Promise<void> {
  if (await repo.markFailed(db, deliveryId)) webhookDeliveries.inc({ outcome: 'abandoned' });
}
