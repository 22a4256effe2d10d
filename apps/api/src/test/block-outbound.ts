import net from 'node:net';

/**
 * Jest setup of the api project: outbound network is blocked (STYLE.md "Outbound HTTP is blocked except the
 * fakes a test starts"). A socket may connect only to this machine (the test PostgreSQL and the fakes a test
 * listens with: payment gateway, SMTP sink) or to a Unix socket; any other host fails at once with
 * EOUTBOUNDBLOCKED instead of reaching the internet. Covers http, https, fetch (undici) and raw sockets.
 */
const LOCAL = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

type ConnectArgs = Parameters<typeof net.Socket.prototype.connect>;
const originalConnect = net.Socket.prototype.connect;

/** The host a connect() call targets; undefined for Unix sockets and defaults (localhost). */
function targetHost(args: unknown[]): string | undefined {
  const [first, second] = args;
  if (Array.isArray(first)) return targetHost(first);
  if (first && typeof first === 'object') {
    const o = first as { host?: string; path?: string };
    return o.path ? undefined : o.host;
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first)))
    return typeof second === 'string' ? second : undefined;
  return undefined; // a path: Unix socket
}

net.Socket.prototype.connect = function connect(this: net.Socket, ...args: ConnectArgs) {
  const host = targetHost(args);
  if (host !== undefined && !LOCAL.has(host.toLowerCase())) {
    const err = Object.assign(new Error(`Outbound network is blocked in tests (connect to ${host}); start a local fake instead`), {
      code: 'EOUTBOUNDBLOCKED',
    });
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return originalConnect.apply(this, args);
} as typeof net.Socket.prototype.connect;
