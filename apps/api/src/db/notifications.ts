import pg from 'pg';
import type { Logger } from '../logger';

/**
 * What a cache in the API process needs from PostgreSQL's LISTEN/NOTIFY: the channels it listens on, what a
 * notification does, what to do once listening (after every connect: the cache may trust itself again, and
 * must drop what it could have missed) and when the connection is lost (stop trusting the cache).
 */
export interface NotificationSubscriber {
  channels: readonly string[];
  onNotification(channel: string, payload: string): void;
  onListening(): void | Promise<void>;
  onLost(): void;
}

/** A running listener: `ready` resolves once first listening (and every subscriber ready); `stop` ends it. */
export interface NotificationListener {
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * One pg connection (application_name `portal-notifications`) LISTENing on every subscriber's channels,
 * reconnecting after 1 s, doubling up to 30 s, while it is down. Subscribers are told when listening starts
 * and when the connection is lost, so a cache is only trusted while every change to what it holds is heard
 * (the triggers of migrations 2026112900010001 and 2026112900010002 announce them).
 */
export function startNotifications(connectionString: string, logger: Logger, subscribers: NotificationSubscriber[]): NotificationListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | undefined;
  let markReady = () => {};
  const ready = new Promise<void>((ok) => (markReady = ok));
  const channels = [...new Set(subscribers.flatMap((s) => s.channels))];

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString, application_name: 'portal-notifications' });
    client = c;
    const lost = (err?: Error) => {
      if (client !== c || stopped) return;
      client = undefined;
      logger.warn({ err: err?.message, channels }, 'notification listener is not connected; caches bypassed until it is back');
      for (const s of subscribers) s.onLost();
      void c.end().catch(() => undefined);
      retry();
    };
    c.on('notification', (n) => {
      for (const s of subscribers) if (s.channels.includes(n.channel)) s.onNotification(n.channel, n.payload ?? '');
    });
    c.on('error', lost);
    c.on('end', () => lost());
    try {
      await c.connect();
      for (const ch of channels) await c.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
      if (stopped || client !== c) return void (await c.end());
      await Promise.all(subscribers.map((s) => s.onListening()));
      retryMs = 1000;
      markReady();
    } catch (err) {
      lost(err instanceof Error ? err : new Error(String(err)));
    }
  };
  void connect();
  return {
    ready,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const s of subscribers) s.onLost();
      await client?.end().catch(() => undefined);
    },
  };
}
