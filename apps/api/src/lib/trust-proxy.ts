import ipaddr from 'ipaddr.js';

/**
 * TRUST_PROXY → the value for express's `trust proxy` setting: `false`/empty (trust nobody), a hop
 * count (`1`), or a comma list of addresses, subnets and the names loopback, linklocal, uniquelocal.
 * `true` (trust every hop) is refused: anyone could then choose their own address. Throws when invalid.
 */
export function parseTrustProxy(value: string): false | number | string {
  const v = value.trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v === 'true') throw new Error('TRUST_PROXY=true would trust every X-Forwarded-For hop; give a hop count or the proxy addresses');
  for (const part of v.split(',').map((s) => s.trim())) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(part)) continue;
    const [addr, bits] = part.split('/');
    if (!ipaddr.isValid(addr) || (bits !== undefined && !/^\d+$/.test(bits) && !ipaddr.isValid(bits))) {
      throw new Error(`TRUST_PROXY: "${part}" is not an address, subnet, or loopback/linklocal/uniquelocal`);
    }
  }
  return v;
}
