import type { MonetraCredentials } from './credentials';
import type {
  ChargeLookup,
  ChargeRequest,
  ChargeResult,
  LookupRequest,
  PaymentGateway,
  RefundRequest,
  RefundResult,
} from './payment-gateway';

export interface MonetraOptions {
  /** The Monetra JSON endpoint (config.monetraUrl); a sale is POSTed to it. */
  url: string | undefined;
  timeoutMs: number;
  /** The store's decrypted credentials, or undefined when none are configured (→ SETUP error). */
  credentialsFor(storeId: number): Promise<MonetraCredentials | undefined>;
}

const DECLINE_CODES = new Set(['DENY', 'DECL', 'DECLINE', 'DECLINED', 'CALL', 'PKUP', 'DUPL']);

/**
 * Monetra over HTTP JSON (ARCHITECTURE §6, spec 002 §7 process-monetra-payment): POST to the configured
 * endpoint with HTTP Basic auth from the store's credentials and a sale request (card data, verification
 * ZIP, amount with 2 decimals, currency 840, order number as reference). The answer's IS_SUCCESS / code /
 * verbiage map to approved (AUTH), declined (DENY, DECL, CALL, PKUP, DUPL) or error (anything else, HTTP
 * errors, timeouts, unreadable bodies, missing credentials → code SETUP). Never throws; never logs the card.
 */
export function createMonetraGateway(opts: MonetraOptions): PaymentGateway {
  return {
    name: 'monetra',
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      if (!opts.url) return { status: 'error', code: 'SETUP', verbiage: 'The payment gateway is not configured', reference: null };
      let creds: MonetraCredentials | undefined;
      try {
        creds = await opts.credentialsFor(req.storeId);
      } catch {
        return { status: 'error', code: 'SETUP', verbiage: 'The payment credentials of this store cannot be read', reference: null };
      }
      if (!creds)
        return { status: 'error', code: 'SETUP', verbiage: 'No payment credentials are configured for this store', reference: null };
      const [mm, yy] = req.card.expiration.split('/');
      const request = {
        action: 'sale',
        nsf: 'no',
        tokenize: 'no',
        account: req.card.cardNumber.replace(/\s+/g, ''),
        expdate: `${mm}${yy}`,
        cv: req.card.securityCode,
        cardholdername: req.card.cardName,
        zip: req.card.zipCode,
        amount: req.amount,
        currency: '840',
        ordernum: req.orderNumber,
        custref: req.orderNumber,
        merch_desc: `Order ${req.orderNumber}`,
      };
      const answer = await post(opts.url, opts.timeoutMs, creds, request);
      if ('error' in answer) return { ...answer.error, reference: null };
      return mapMonetraResult(answer.body);
    },
    async lookup(req: LookupRequest): Promise<ChargeLookup> {
      const unavailable = (code: string, verbiage: string): ChargeLookup => ({ status: 'unavailable', code, verbiage, reference: null });
      if (!opts.url) return unavailable('SETUP', 'The payment gateway is not configured');
      let creds: MonetraCredentials | undefined;
      try {
        creds = await opts.credentialsFor(req.storeId);
      } catch {
        return unavailable('SETUP', 'The payment credentials of this store cannot be read');
      }
      if (!creds) return unavailable('SETUP', 'No payment credentials are configured for this store');
      const answer = await post(opts.url, opts.timeoutMs, creds, {
        action: 'admin',
        admin: 'gut',
        ordernum: req.orderNumber,
        custref: req.orderNumber,
      });
      if ('error' in answer) return { ...answer.error, status: 'unavailable', reference: null };
      return mapMonetraLookup(answer.body, req.orderNumber);
    },
    /**
     * Monetra `return` of the charge by its ttid (the gateway reference), with the refund's own reference as
     * `ordernum` (so a lookup finds it, and Monetra's duplicate check refuses a second one); AUTH = refunded.
     * No answer (timeout, network, 5xx, unreadable) is an unknown outcome (outcomeUnknown), settled by lookup.
     */
    async refund(req: RefundRequest): Promise<RefundResult> {
      const refused = (code: string, verbiage: string): RefundResult => ({ status: 'error', code, verbiage, reference: null });
      if (!opts.url) return refused('SETUP', 'The payment gateway is not configured');
      let creds: MonetraCredentials | undefined;
      try {
        creds = await opts.credentialsFor(req.storeId);
      } catch {
        return refused('SETUP', 'The payment credentials of this store cannot be read');
      }
      if (!creds) return refused('SETUP', 'No payment credentials are configured for this store');
      const answer = await post(opts.url, opts.timeoutMs, creds, {
        action: 'return',
        ...(req.chargeReference ? { ttid: req.chargeReference } : {}),
        amount: req.amount,
        currency: '840',
        ordernum: req.refundReference,
        custref: req.orderNumber,
      });
      if ('error' in answer) return { ...answer.error, reference: null };
      return mapMonetraResult(answer.body);
    },
  };
}

/** POSTs one Monetra JSON request with HTTP Basic auth; the parsed JSON answer, or an error code. Never throws. */
async function post(
  url: string,
  timeoutMs: number,
  creds: MonetraCredentials,
  request: Record<string, string>,
): Promise<{ body: Record<string, unknown> } | { error: { status: 'error'; code: string; verbiage: string } }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
      },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timeout = isRecord(err) && err.name === 'TimeoutError';
    return {
      error: {
        status: 'error',
        code: timeout ? 'TIMEOUT' : 'NETWORK',
        verbiage: timeout ? 'The payment gateway did not answer in time' : 'The payment gateway cannot be reached',
      },
    };
  }
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = await res.json();
    body = isRecord(parsed) ? parsed : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok || !body || typeof body !== 'object') {
    return { error: { status: 'error', code: `HTTP_${res.status}`, verbiage: 'The payment gateway answered with an error' } };
  }
  return { body };
}

/** A JSON object (or array): what a property of Monetra's answer may be read from. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Maps Monetra's answer to a lookup of unsettled transactions by order number (action admin, admin gut,
 * ordernum): `report` lists the transactions with that order number, each like a sale answer (code,
 * verbiage, ttid). The newest approved one wins, else the last one; an empty report → not_found; an
 * answer without a report (refused lookup) → unavailable.
 */
export function mapMonetraLookup(body: Record<string, unknown>, orderNumber: string): ChargeLookup {
  if (!Array.isArray(body.report)) {
    return {
      status: 'unavailable',
      code: typeof body.code === 'string' ? body.code.toUpperCase() : 'UNKNOWN',
      verbiage: 'The transaction lookup was refused',
      reference: null,
    };
  }
  const report: unknown[] = body.report;
  const rows = report.filter(isRecord).filter((r) => r.ordernum === undefined || String(r.ordernum) === orderNumber);
  if (!rows.length) return { status: 'not_found', code: 'NOTFOUND', verbiage: 'No charge with this reference', reference: null };
  const results = rows.map((r) => mapMonetraResult(r));
  return results.find((r) => r.status === 'approved') ?? results[results.length - 1];
}

/** Maps a Monetra answer ({ IS_SUCCESS?, code, verbiage, ttid? }) to a ChargeResult. */
export function mapMonetraResult(body: Record<string, unknown>): ChargeResult {
  const code = typeof body.code === 'string' ? body.code.toUpperCase() : '';
  const verbiage = typeof body.verbiage === 'string' && body.verbiage.trim() ? body.verbiage.trim() : '';
  const ref = body.ttid ?? body.reference ?? (isRecord(body.JSON_Result) ? body.JSON_Result.ttid : undefined);
  const reference = typeof ref === 'string' || typeof ref === 'number' ? String(ref) : null;
  const success = body.IS_SUCCESS;
  if ((code === 'AUTH' && success !== false) || (code === '' && success === true)) {
    return { status: 'approved', code: code || 'AUTH', verbiage: verbiage || 'APPROVED', reference };
  }
  if (DECLINE_CODES.has(code)) return { status: 'declined', code, verbiage: verbiage || 'The card was declined.', reference };
  return { status: 'error', code: code || 'UNKNOWN', verbiage: verbiage || 'The payment could not be processed', reference };
}
