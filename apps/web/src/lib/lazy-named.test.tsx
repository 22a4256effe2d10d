import { Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { lazyNamed } from './lazy-named';

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;

describe('lazyNamed', () => {
  it('when the module was preloaded before the component mounts, then it renders at once, without the fallback', async () => {
    const Lazy = lazyNamed(async () => ({ Greeting }), 'Greeting');
    await Lazy.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Lazy name="Blake" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Blake')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('when it mounts before its module is in, then the fallback shows until it loads (as React.lazy)', async () => {
    let resolve!: (m: { Greeting: typeof Greeting }) => void;
    const load = jest.fn(() => new Promise<{ Greeting: typeof Greeting }>((ok) => (resolve = ok)));
    const Lazy = lazyNamed(load, 'Greeting');
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Lazy name="Blake" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    resolve({ Greeting });
    expect(await screen.findByText('Hello Blake')).toBeInTheDocument();
    await Lazy.preload();
    expect(load).toHaveBeenCalledTimes(1); // one load, shared by the render and preload()
  });

  it('when the load fails, then the next preload asks again', async () => {
    const load = jest
      .fn<Promise<{ Greeting: typeof Greeting }>, []>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue({ Greeting });
    const Lazy = lazyNamed(load, 'Greeting');
    await expect(Lazy.preload()).rejects.toThrow('chunk failed');
    await expect(Lazy.preload()).resolves.toBe(Greeting);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
