import { createHash } from 'node:crypto';
import request from 'supertest';
import type { DeferredMail, MailMessage } from '../../context';
import { renderMail } from '../../lib/mail/render';
import { createTestContext, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';

/**
 * Password recovery answers the same, doing the same work, whether or not the account
 * exists (the work happens in the mail job), and the queued job carries no secret.
 */
let t: TestContext;
let f: Fixtures;
const queued: (MailMessage | DeferredMail)[] = [];
beforeAll(async () => {
  // The mailer records what the request queues, as pg-boss would store it (not rendered).
  t = await createTestContext({
    mailer: {
      enqueue: async (_db, m) => {
        queued.push(JSON.parse(JSON.stringify(m)));
      },
    },
  });
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const recover = (email: string, ip: string) =>
  request(t.app).post('/api/v1/auth/password-recovery').set('X-Forwarded-For', ip).send({ email });
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('password recovery does the same work for every email', () => {
  it('when a known, an unknown and a deactivated email ask, then each request queues the same deferred job, writes the same audit row and no token', async () => {
    const emails = [f.users.viewer.email, 'nobody-at-all@example.com', f.users.inactive.email];
    // The audit rows written from here on (the timing test asks for the viewer's links too).
    const lastId = ((await t.db('audit_log').max('id as id').first()) as { id: number } | undefined)?.id ?? 0;
    for (const [i, email] of emails.entries()) expect((await recover(email, `10.7.0.${i + 1}`)).status).toBe(202);
    const jobs = queued.slice(-3);
    expect(jobs).toEqual(
      emails.map((email) => ({
        render: 'password_reset',
        to: email,
        data: { email, ip: expect.any(String), linkBase: expect.stringMatching(/^http:\/\//) },
      })),
    );
    expect(Number(((await t.db('password_reset_tokens').count('* as n').first()) as { n: string } | undefined)?.n)).toBe(0);
    const audits = await t
      .db('audit_log')
      .where({ action: 'auth.password_recovery_requested' })
      .where('id', '>', lastId)
      .whereIn('actor_email', emails)
      .orderBy('id');
    expect(audits.map((a) => [a.actor_email, a.user_id, a.details])).toEqual(emails.map((e) => [e, null, null]));

    // The job's work: only the active account gets a token (stored hashed) and a mail; the others nothing.
    const [known, unknown, inactive] = await Promise.all(jobs.map((j) => renderMail({ db: t.db, config: t.config }, j)));
    expect(unknown).toBeNull();
    expect(inactive).toBeNull();
    expect(known).toMatchObject({ to: f.users.viewer.email, template: 'password_reset', subject: 'Reset your password' });
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(known!.text)![1];
    expect(
      await t
        .db('password_reset_tokens')
        .where({ token_hash: sha256(token) })
        .first(),
    ).toMatchObject({ user_id: f.users.viewer.id, used_at: null });
    expect(await t.db('password_reset_tokens').where({ token_hash: token }).first()).toBeUndefined();
    expect(await t.db('audit_log').where({ action: 'auth.password_reset_issued', user_id: f.users.viewer.id })).toHaveLength(1);
    // The queued job never held it.
    expect(JSON.stringify(queued)).not.toContain(token);
  });

  it('when known and unknown emails are asked for in turn, then the answers take the same time (medians within 15 ms or 50 %)', async () => {
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let i = 0; i < 16; i++) {
      for (const kind of ['known', 'unknown'] as const) {
        const email = kind === 'known' ? `${['admin', 'manager', 'buyer', 'viewer'][i % 4]}@example.com` : `ghost${i}@example.com`;
        const started = process.hrtime.bigint();
        const res = await recover(email, `10.7.${i + 10}.${kind === 'known' ? 1 : 2}`);
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        expect(res.status).toBe(202);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [k, u] = [median(times.known), median(times.unknown)];
    console.log(`password recovery median: known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`);
    expect(Math.abs(k - u)).toBeLessThan(Math.max(15, 0.5 * Math.min(k, u)));
  });
});
