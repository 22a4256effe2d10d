import { lazy, useState, type ComponentType } from 'react';

/** A component loaded on demand by lazyNamed, with `preload()` to start (or join) its load before it renders. */
export type LazyNamed<P extends object> = ComponentType<P> & { preload(): Promise<ComponentType<P>> };

/**
 * React.lazy for a module's named export that does not suspend once the module is in: a component that mounts after
 * `preload()` has resolved renders at once. Issue 26: a lazy component suspends at its first render even when its
 * chunk is already loaded, and React holds back revealing suspended content for 300 ms after any fallback was shown
 * (its fallback throttle), which kept a signed-in screen off the page for 300 ms after its data had arrived.
 * A component that mounts before then suspends as React.lazy does (put it under a Suspense boundary).
 */
export function lazyNamed<K extends string, P extends object>(load: () => Promise<{ [k in K]: ComponentType<P> }>, name: K): LazyNamed<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (m) => (loaded = m[name]),
      (err: unknown) => {
        loading = undefined; // a failed chunk load may be retried by the next render
        throw err;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Named(props: P) {
    // Decided once per mount: switching from the lazy wrapper to the component would remount it.
    const [Direct] = useState(() => loaded);
    return Direct ? <Direct {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Named, { preload });
}
