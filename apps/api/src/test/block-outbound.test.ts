import http from 'node:http';
import type { AddressInfo } from 'node:net';

const get = (url: string) =>
  new Promise<number>((ok, fail) => {
    http
      .get(url, (res) => {
        res.resume();
        ok(res.statusCode ?? 0);
      })
      .on('error', fail);
  });

describe('outbound network in API tests', () => {
  it('when a test calls a host on the internet, then the connection is refused at once with EOUTBOUNDBLOCKED', async () => {
    await expect(get('http://example.com/')).rejects.toMatchObject({ code: 'EOUTBOUNDBLOCKED' });
  });

  it('when a test calls a fake it started on this machine, then the call goes through', async () => {
    const server = http.createServer((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      expect(await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).toBe(204);
    } finally {
      server.close();
    }
  });
});
