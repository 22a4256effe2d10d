import { retry } from './retry';

describe('retry', () => {
  it('when the call fails twice then succeeds, then it answers the success after three tries', async () => {
    const fn = jest.fn().mockRejectedValueOnce(new Error('a')).mockRejectedValueOnce(new Error('b')).mockResolvedValue(7);
    await expect(retry(fn, { attempts: 3, delayMs: 1 })).resolves.toBe(7);
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('when every try fails, then it rejects with the last failure after `attempts` tries', async () => {
    const fn = jest.fn().mockRejectedValueOnce(new Error('first')).mockRejectedValue(new Error('last'));
    await expect(retry(fn, { attempts: 3, delayMs: 1 })).rejects.toThrow('last');
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('when shouldRetry says no, then it rejects after one try', async () => {
    const fn = jest.fn().mockRejectedValue(new Error('final'));
    await expect(retry(fn, { attempts: 5, delayMs: 1, shouldRetry: () => false })).rejects.toThrow('final');
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('when alive() is false, then no try is made', async () => {
    const fn = jest.fn().mockResolvedValue(1);
    await expect(retry(fn, { attempts: 3, delayMs: 1, alive: () => false })).rejects.toThrow('retry stopped');
    expect(fn).not.toHaveBeenCalled();
  });
});
