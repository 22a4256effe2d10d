import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Logs survive a crash (issue 23 §5): a production process killed (SIGKILL) right after a log line leaves
 * that line on stdout; a process whose exception is uncaught logs it as fatal and flushes its buffer first.
 */
const ROOT = join(__dirname, '../../..');
const CHILD = join(__dirname, 'test/log-then-wait.ts');
const PRODUCTION = {
  NODE_ENV: 'production',
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'info',
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  JWT_SECRET: 'log-test-3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e',
  PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32),
};

/** Runs the child with `env`; `onMessage` may kill it. Resolves with its stdout and how it ended. */
function runChild(env: Record<string, string>, onMessage?: (child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ stdout: string; code: number | null; signal: NodeJS.Signals | null }>((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.on('message', () => onMessage?.(child));
    child.on('exit', (code, signal) => done({ stdout, code, signal }));
  });
}

describe('the process logger', () => {
  it('when a production process is killed (SIGKILL) right after a log line, then the line is on its stdout', async () => {
    const marker = `kill-${Date.now()}`;
    const ran = await runChild({ ...PRODUCTION, LOG_MARKER: marker }, (child) => child.kill('SIGKILL'));
    expect(ran.signal).toBe('SIGKILL');
    const line = ran.stdout.split('\n').find((l) => l.includes(marker));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 30, msg: 'the last words before the end', marker });
  }, 30_000);

  it('when an exception is uncaught right after a line (buffered logger, outside production), then both lines are written and it exits 1', async () => {
    const marker = `throw-${Date.now()}`;
    const ran = await runChild({ ...PRODUCTION, NODE_ENV: 'development', LOG_MARKER: marker, THROW_AFTER_LOG: '1' });
    expect(ran.code).toBe(1);
    const lines = ran.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ msg: 'the last words before the end', marker }),
        expect.objectContaining({
          level: 60,
          msg: 'uncaught exception: the process stops',
          err: expect.objectContaining({ message: 'boom after the line' }),
        }),
      ]),
    );
  }, 30_000);
});
