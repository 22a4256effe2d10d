import request from 'supertest';
import { BULK_INVITE_MAX_ROWS, PROBLEM_CODES } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';

let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

type User = keyof Fixtures['users'];
const HEADER = 'email,first name,last name,role code,outlet codes';
let seq = 0;
const email = (tag = 'bulk') => `${tag}-${++seq}-${Date.now().toString(36)}@example.com`;
const post = (csv: string | Buffer, opts: { user?: User; dryRun?: boolean; type?: string } = {}) => {
  const r = request(t.app).post(`/api/v1/invitations/bulk${opts.dryRun ? '?dryRun=true' : ''}`);
  r.set('Content-Type', opts.type ?? 'text/csv');
  r.set('Authorization', `Bearer ${tokenFor(t, f.users[opts.user ?? 'admin'])}`);
  return r.send(csv);
};
const counts = async () => ({
  invitations: Number((await t.db('invitations').count<{ count: string }[]>('* as count'))[0].count),
  audit: Number((await t.db('audit_log').where({ action: 'invitation.created' }).count<{ count: string }[]>('* as count'))[0].count),
  mail: t.mail.length,
});

describe('POST /invitations/bulk', () => {
  it("when the admin dry-runs the check's file, then rows 3 and 4 are refused by line number and nothing is written or mailed", async () => {
    const before = await counts();
    const csv = [
      HEADER,
      `${email()},Bea,Bulk,outlet_buyer,DEMO-DSM-01`,
      'not-an-email,Bad,Row,outlet_buyer,DEMO-DSM-01',
      `${email()},Bo,Bulk,no_such_role,DEMO-DSM-01`,
      `${email()},Bev,Bulk,outlet_viewer,DEMO-DSM-01;DEMO-AMS-01`,
    ].join('\n');
    const res = await post(csv + '\n', { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.results.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).toEqual([
      [2, true],
      [3, false],
      [4, false],
      [5, true],
    ]);
    expect(res.body.results[1]).toMatchObject({ code: PROBLEM_CODES.validationFailed, message: 'Please enter a valid email address' });
    expect(res.body.results[2].message).toMatch(/no_such_role/);
    expect([res.body.okCount, res.body.failedCount]).toEqual([2, 2]);
    expect(await counts()).toEqual(before);
  });

  it('when the admin sends, then each valid row is invited and mailed once, refused rows are skipped', async () => {
    const a = email();
    const b = email();
    const before = await counts();
    const csv = `${HEADER}\n${a},Ann,Lee,outlet_buyer,DEMO-DSM-01\n${b},Bob,Ray,outlet_buyer,NOPE-1\n`;
    const res = await post(csv);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(res.body.results[1].message).toMatch(/NOPE-1/);
    const row = await t.db('invitations').where({ email: a }).first();
    expect(row?.id).toBe(res.body.results[0].invitationId);
    expect(await t.db('invitations').where({ email: b }).first()).toBeUndefined();
    const after = await counts();
    expect(after.invitations - before.invitations).toBe(1);
    expect(after.audit - before.audit).toBe(1);
    expect(t.mail.filter((m) => m.to === a)).toHaveLength(1);
  });

  it('when a store-level role names store numbers, then it is invited at those stores; an unknown store number names the line', async () => {
    const a = email();
    const csv = `email,first name,last name,role code,store numbers\n${a},Sam,Store,store_staff,${FIXTURE_STORES.central}\n${email()},No,Store,store_staff,999999\n`;
    const res = await post(csv, { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).toEqual([
      [2, true],
      [3, false],
    ]);
    expect(res.body.results[1].message).toMatch(/999999/);
  });

  it('when the file invites the caller themselves, then that row is refused as a self grant', async () => {
    const res = await post(`${HEADER}\nadmin@example.com,Ad,Min,outlet_buyer,DEMO-DSM-01\n`, { dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ row: 2, ok: false, code: PROBLEM_CODES.selfGrantForbidden });
  });

  it('when a store manager names a role above theirs or an outlet out of reach, then those rows are refused (§11)', async () => {
    const csv = `${HEADER}\n${email()},Su,Per,super_admin,DEMO-DSM-01\n${email()},Da,Ven,outlet_buyer,DEMO-DAV-01\n${email()},Ok,Fine,outlet_buyer,DEMO-DSM-01\n`;
    const res = await post(csv, { user: 'manager', dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean; code?: string }) => [r.ok, r.code])).toEqual([
      [false, PROBLEM_CODES.roleNotGrantable],
      [false, PROBLEM_CODES.outletNotGrantable],
      [true, undefined],
    ]);
  });

  it('when one email is on two lines, then the second is refused naming the first line', async () => {
    const a = email();
    const res = await post(`${HEADER}\n${a},A,One,outlet_buyer,DEMO-DSM-01\n${a.toUpperCase()},A,Two,outlet_buyer,DEMO-DSM-01\n`, {
      dryRun: true,
    });
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(res.body.results[1].message).toMatch(/line 2/);
  });

  it('when a buyer (no bcc.users.allow_invites) posts, then 403 and nothing is read', async () => {
    const res = await post(`${HEADER}\n${email()},A,B,outlet_buyer,DEMO-DSM-01\n`, { user: 'buyer', dryRun: true });
    expect(res.status).toBe(403);
  });

  it('when the header lacks a column, then 400 csv_header_unknown; a header alone is 400 bulk_body_empty', async () => {
    const bad = await post(`email,name\n${email()},A\n`, { dryRun: true });
    expect([bad.status, bad.body.code]).toEqual([400, PROBLEM_CODES.csvHeaderUnknown]);
    const empty = await post(`${HEADER}\n`, { dryRun: true });
    expect([empty.status, empty.body.code]).toEqual([400, PROBLEM_CODES.bulkBodyEmpty]);
  });

  it('when the body is over 1 MB or over the row cap, then 413; JSON is 415; binary is 400', async () => {
    const big = `${HEADER}\n` + `${'x'.repeat(200)}@example.com,A,B,outlet_buyer,DEMO-DSM-01\n`.repeat(6000);
    const tooBig = await post(big, { dryRun: true });
    expect([tooBig.status, tooBig.body.code]).toEqual([413, PROBLEM_CODES.payloadTooLarge]);
    const many = `${HEADER}\n` + `a@b.co,A,B,r,o\n`.repeat(BULK_INVITE_MAX_ROWS + 1);
    const tooMany = await post(many, { dryRun: true });
    expect(tooMany.status).toBe(413);
    const json = await request(t.app)
      .post('/api/v1/invitations/bulk?dryRun=true')
      .set('Authorization', `Bearer ${tokenFor(t, f.users.admin)}`)
      .send([{ email: 'a@b.co' }]);
    expect(json.status).toBe(415);
    const bin = await post(Buffer.from([0x65, 0x00, 0x0a]), { dryRun: true });
    expect([bin.status, bin.body.code]).toEqual([400, PROBLEM_CODES.bodyBinary]);
  });
});
