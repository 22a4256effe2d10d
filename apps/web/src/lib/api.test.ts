import { FakeApi, problem, unreachable } from '@/test/fake-api';
import { api, ApiError, getAccessToken, onSessionExpired, setAccessToken } from './api';
import { downloadFile } from './download';

/** lib/api (ARCHITECTURE §1, issue 26): the ky client's bearer, one shared refresh on 401, no retries of its own, ApiError. */
let fake: FakeApi;
beforeEach(() => {
  setAccessToken('tok-old');
  fake = new FakeApi().install();
});
afterEach(async () => {
  fake.uninstall();
  // The shared refresh is forgotten one macrotask after it settles; let that pass before the next test.
  await new Promise((resolve) => setTimeout(resolve, 0));
});

const bearerOf = (i: number) => fake.headerOf(fake.calls[i], 'Authorization');
/** A route that refuses the old token with 401 and answers `body` to the new one. */
const needsNewToken = (body: unknown) => (call: Parameters<FakeApi['headerOf']>[0]) =>
  fake.headerOf(call, 'Authorization') === 'Bearer tok-new' ? { status: 200, body } : problem(401, 'unauthenticated');

describe('lib/api', () => {
  it('when a call answers 401, then the token is refreshed once for concurrent calls and each call is retried once with the new bearer', async () => {
    fake
      .on('post', '/auth/refresh', { status: 200, body: { access_token: 'tok-new' } })
      .on('get', '/me', needsNewToken({ who: 'me' }))
      .on('post', '/orders/7/ready', needsNewToken(''));
    const [me, ready] = await Promise.all([api.get('/me'), api.post('/orders/7/ready')]);
    expect(me).toEqual({ who: 'me' });
    expect(ready).toBe('');
    expect(fake.urls('post').filter((u) => u === '/auth/refresh')).toHaveLength(1);
    expect(getAccessToken()).toBe('tok-new');
    expect(fake.urls('get')).toEqual(['/me', '/me']);
    expect(bearerOf(0)).toBe('Bearer tok-old');
    const refresh = fake.calls.find((c) => c.url === '/auth/refresh')!;
    expect(fake.headerOf(refresh, 'Authorization')).toBeUndefined();
    const retries = fake.calls.filter((c) => c.url !== '/auth/refresh').slice(2);
    expect(retries.map((c) => fake.headerOf(c, 'Authorization'))).toEqual(['Bearer tok-new', 'Bearer tok-new']);
  });

  it('when the retried call answers 401 again, then that ApiError is thrown without a second refresh', async () => {
    fake.on('post', '/auth/refresh', { status: 200, body: { access_token: 'tok-new' } }).on('get', '/me', problem(401, 'unauthenticated'));
    await expect(api.get('/me')).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(fake.urls('get')).toEqual(['/me', '/me']);
    expect(fake.urls('post')).toEqual(['/auth/refresh']);
  });

  it('when the refresh fails, then the sign-out listeners hear it and the 401 is thrown as ApiError', async () => {
    const expired = jest.fn();
    const off = onSessionExpired(expired);
    fake.on('post', '/auth/refresh', problem(401, 'unauthenticated')).on('get', '/me', problem(401, 'unauthenticated', 'Sign in again.'));
    const error = await api.get('/me').catch((e: unknown) => e);
    off();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated', message: 'Sign in again.' });
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBeNull();
    expect(fake.urls('get')).toEqual(['/me']);
  });

  it('when sign-in itself answers 401, then nothing is refreshed', async () => {
    fake.on('post', '/auth/login', problem(401, 'unauthenticated'));
    await expect(api.post('/auth/login', { json: { email: 'a@b.co', password: 'x' } })).rejects.toMatchObject({ status: 401 });
    expect(fake.urls('post')).toEqual(['/auth/login']);
  });

  it('when a GET fails with 500 or a refusal, then it is not retried (ky retries GETs by default) and the problem body is kept', async () => {
    fake
      .on('get', '/orders', problem(503, 'service_unavailable', 'Try later.'))
      .on('get', '/carts/1', { status: 422, body: { ...(problem(422, 'validation_failed').body as object), shortfallMl: 750 } });
    await expect(api.get('/orders')).rejects.toMatchObject({ status: 503, code: 'service_unavailable', message: 'Try later.' });
    const refusal = await api.get('/carts/1').then(
      () => null,
      (e: ApiError) => e,
    );
    expect(refusal?.extension('shortfallMl')).toBe(750);
    expect(fake.urls('get')).toEqual(['/orders', '/carts/1']);
  });

  it('when the answer is not a problem, then the ApiError says the status with code unknown', async () => {
    fake.on('get', '/orders', { status: 502, body: '<html>Bad gateway</html>' });
    await expect(api.get('/orders')).rejects.toMatchObject({ status: 502, code: 'unknown', message: 'The server answered 502.' });
  });

  it('when the server cannot be reached or the call times out, then status 0 with code network_error or timeout', async () => {
    fake.on('get', '/orders', unreachable()).on('post', '/orders', unreachable({ timeout: true }));
    await expect(api.get('/orders')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      message: 'Could not reach the server. Check your connection and try again.',
    });
    await expect(api.post('/orders', { json: {}, timeout: 45_000 })).rejects.toMatchObject({
      status: 0,
      code: 'timeout',
      message: 'The server did not answer in time.',
    });
    expect(fake.calls).toHaveLength(2);
  });

  it('when a call sends query, headers and a text body, then they arrive as given', async () => {
    fake.on('post', '/invitations/bulk', { status: 200, body: { ok: true } });
    await api.post('/invitations/bulk?dryRun=true', {
      body: 'email\na@b.co\n',
      headers: { 'Content-Type': 'text/csv', 'Idempotency-Key': 'k-1' },
    });
    expect(fake.calls[0]).toEqual({ method: 'post', url: '/invitations/bulk?dryRun=true', body: 'email\na@b.co\n' });
    expect(fake.headerOf(fake.calls[0], 'Idempotency-Key')).toBe('k-1');
    expect(bearerOf(0)).toBe('Bearer tok-old');
  });

  it('when a file download is refused, then its problem is read although a blob was asked for', async () => {
    fake.on('get', '/orders/3/invoice.pdf', problem(404, 'not_found', 'No invoice yet.'));
    await expect(downloadFile('/orders/3/invoice.pdf', 'invoice.pdf')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(fake.headerOf(fake.calls[0], 'Accept')).toBe('application/pdf, application/problem+json');
  });

  it('when a form is uploaded, then XMLHttpRequest sends it with the bearer and progress, refreshing on 401 like any call', async () => {
    fake
      .on('post', '/auth/refresh', { status: 200, body: { access_token: 'tok-new' } })
      .on('post', '/admin/imports', needsNewToken({ id: 'r1', status: 'queued' }));
    const form = new FormData();
    form.append('files', new File(['code\n1\n'], 'products.csv', { type: 'text/csv' }));
    const progress = jest.fn();
    await expect(api.upload('/admin/imports', form, progress)).resolves.toEqual({ id: 'r1', status: 'queued' });
    expect(fake.urls('post')).toEqual(['/admin/imports', '/auth/refresh', '/admin/imports']);
    const [first, , retry] = fake.calls;
    expect(first.body).toBe(form);
    expect(fake.headerOf(retry, 'Authorization')).toBe('Bearer tok-new');
    expect(fake.headerOf(retry, 'Content-Type')).toBeUndefined();
    expect(progress).toHaveBeenLastCalledWith(100);
  });
});
