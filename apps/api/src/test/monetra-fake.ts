import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: the auth header and the JSON body. */
export interface MonetraSeen {
  auth: string | undefined;
  body: Record<string, string>;
}

/** A charge the fake made, by order number (its ledger). */
export interface MonetraCharge {
  ordernum: string;
  amount: string;
  code: string;
  verbiage: string;
  ttid: string;
  IS_SUCCESS: boolean;
}

export interface MonetraFake {
  /** The sale endpoint (config MONETRA_URL). */
  url: string;
  seen: MonetraSeen[];
  /** Every sale answered, by order number (a second sale with the same order number adds another). */
  charges: MonetraCharge[];
  /** Milliseconds each sale waits before it is recorded and answered (the ledger is written first). */
  delayMs: number;
  /**
   * Refunds (`action: return`) the fake made: `ordernum` is the refunded charge's order number, `reference`
   * the return's own order number (the refund's idempotent reference). A return repeating a reference
   * answers the first refund without making another.
   */
  refunds: { ordernum: string; reference: string; ttid: string; amount: string }[];
  /** Every `action: return` request received, refused or repeated ones too (what "refunds sent" counts). */
  returnRequests: Record<string, string>[];
  /** While true, refunds answer GENERROR (a failed refund → cancel_pending). */
  refundDown: boolean;
  /** Milliseconds a refund waits before it is answered (it is made, and on the ledger, first). */
  refundDelayMs: number;
  /** While true, a refund is made but answered with HTTP 503 (its answer is lost: the caller cannot know). */
  refundAnswerLost: boolean;
  /** While true, transaction lookups answer HTTP 503 (the gateway cannot be asked). */
  lookupDown: boolean;
  server: Server;
  close(): Promise<void>;
}

/** The merchant credentials the fake accepts (user merchant-2190, password s3cret). */
export const FAKE_MONETRA_USER = { username: 'merchant-2190', password: 's3cret' };

/**
 * A local fake of Monetra's JSON endpoint for tests and the fault suite. Sales answer by card number
 * (4000000000000002 DENY, …0119 GENERROR, …0500 HTTP 500, …0600 not JSON, anything else AUTH) after
 * `delayMs`, and are written to the fake's ledger *before* the delay ends, as a real gateway commits the
 * charge before its answer reaches us. `action: admin, admin: gut, ordernum` answers `{ report: [...] }`
 * with that order number's charges (the transaction lookup the reconciler uses).
 */
export function startMonetraFake(opts: { port?: number; delayMs?: number } = {}): Promise<MonetraFake> {
  let approvedTtid = 8675308;
  let declinedTtid = 9000;
  const fake = {
    seen: [],
    charges: [],
    refunds: [],
    returnRequests: [],
    refundDown: false,
    refundDelayMs: 0,
    refundAnswerLost: false,
    delayMs: opts.delayMs ?? 0,
    lookupDown: false,
  } as unknown as MonetraFake;
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: Record<string, string>;
    try {
      body = JSON.parse(raw) as Record<string, string>;
    } catch {
      body = {};
    }
    fake.seen.push({ auth: req.headers.authorization, body });
    const reply = (status: number, json: object | string) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof json === 'string' ? json : JSON.stringify(json));
    };
    if (
      req.headers.authorization !== `Basic ${Buffer.from(`${FAKE_MONETRA_USER.username}:${FAKE_MONETRA_USER.password}`).toString('base64')}`
    ) {
      return reply(401, { IS_SUCCESS: false, code: 'SETUP', verbiage: 'Bad credentials' });
    }
    if (body.action === 'admin' && body.admin === 'gut') {
      if (fake.lookupDown) return reply(503, { IS_SUCCESS: false, code: 'UNAVAILABLE' });
      const returns = fake.refunds
        .filter((r) => r.reference === body.ordernum)
        .map((r) => ({ ordernum: r.reference, amount: r.amount, code: 'AUTH', verbiage: 'RETURNED', ttid: r.ttid, IS_SUCCESS: true }));
      return reply(200, {
        IS_SUCCESS: true,
        code: 'AUTH',
        report: [...fake.charges.filter((c) => c.ordernum === body.ordernum), ...returns],
      });
    }
    if (body.action === 'return') {
      // A refund: AUTH for an approved charge of that ttid (or order number), made once per reference
      // (`ordernum` of the return) and once per charge; else DENY. `refundDown` fails it.
      fake.returnRequests.push(body);
      if (fake.refundDown) return reply(200, { IS_SUCCESS: false, code: 'GENERROR', verbiage: 'Return refused' });
      const c = fake.charges.find(
        (x) => x.code === 'AUTH' && (x.ttid === body.ttid || x.ordernum === body.custref || x.ordernum === body.ordernum),
      );
      if (!c) return reply(200, { IS_SUCCESS: false, code: 'DENY', verbiage: 'No such transaction' });
      let made = fake.refunds.find((r) => r.ttid && r.ordernum === c.ordernum);
      if (made && made.reference !== body.ordernum) return reply(200, { IS_SUCCESS: false, code: 'DUPL', verbiage: 'Already returned' });
      if (!made) {
        made = { ordernum: c.ordernum, reference: body.ordernum, ttid: String(++approvedTtid), amount: body.amount };
        fake.refunds.push(made);
      }
      if (fake.refundDelayMs) await new Promise((ok) => setTimeout(ok, fake.refundDelayMs));
      if (fake.refundAnswerLost) return reply(503, { IS_SUCCESS: false, code: 'UNAVAILABLE' });
      return reply(200, { IS_SUCCESS: true, code: 'AUTH', verbiage: 'RETURNED', ttid: made.ttid });
    }
    const outcome = (): object | null => {
      switch (body.account) {
        case '4000000000000002':
          return { IS_SUCCESS: false, code: 'DENY', verbiage: 'DECLINED: insufficient funds', ttid: String(++declinedTtid) };
        case '4000000000000119':
          return { IS_SUCCESS: false, code: 'GENERROR', verbiage: 'Processor unavailable' };
        case '4000000000000500':
          return null;
        case '4000000000000600':
          return null;
        default: {
          const id = String(++approvedTtid);
          return { IS_SUCCESS: true, code: 'AUTH', verbiage: 'APPROVED', ttid: id, JSON_Result: { ttid: id } };
        }
      }
    };
    const answer = outcome() as (MonetraCharge & { ttid?: string }) | null;
    if (answer && (answer.code === 'AUTH' || answer.code === 'DENY')) {
      fake.charges.push({
        ordernum: body.ordernum,
        amount: body.amount,
        code: answer.code,
        verbiage: answer.verbiage,
        ttid: answer.ttid!,
        IS_SUCCESS: answer.IS_SUCCESS,
      });
    }
    if (fake.delayMs) await new Promise((ok) => setTimeout(ok, fake.delayMs));
    if (body.account === '4000000000000500') return reply(500, 'oops');
    if (body.account === '4000000000000600') return reply(200, 'not json');
    return reply(200, answer!);
  });
  fake.server = server;
  fake.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return new Promise((ok) =>
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/transaction/purchase`;
      ok(fake);
    }),
  );
}
