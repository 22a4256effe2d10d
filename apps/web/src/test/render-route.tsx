import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { FakeApi } from './fake-api';

export interface RenderRouteOptions {
  /** The URL the test opens, e.g. '/orders?tab=ready'. Default '/'. */
  url?: string;
  /** The route pattern the element is mounted at, e.g. '/orders/:orderId'. Default: any path. */
  path?: string;
  /** The fake API to answer lib/api; a new empty one when left out. */
  api?: FakeApi;
}

export interface RenderRouteResult extends RenderResult {
  api: FakeApi;
  user: ReturnType<typeof userEvent.setup>;
}

const installed: FakeApi[] = [];
afterEach(() => {
  while (installed.length) installed.pop()?.uninstall();
});

/**
 * The one web test harness: renders `element` as the route `path` at `url` in a memory router, with a fresh
 * SWR cache (no state shared between tests) and the fake API (test/fake-api.ts) answering the app's ky
 * instance. Returns Testing Library's queries, a userEvent instance and the fake (its `calls`).
 */
export function renderRoute(
  element: ReactElement,
  { url = '/', path = '*', api = new FakeApi() }: RenderRouteOptions = {},
): RenderRouteResult {
  installed.push(api.install());
  const user = userEvent.setup();
  const result = render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={element} />
        </Routes>
      </MemoryRouter>
    </SWRConfig>,
  );
  return { ...result, api, user };
}
