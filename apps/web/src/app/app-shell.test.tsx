import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from '@testing-library/react';
import { MemoryRouter, useRoutes } from 'react-router-dom';
import { FakeApi } from '@/test/fake-api';
import { AppProviders } from './providers';
import { routes } from './router';

/**
 * index.html's app shell (issue 26): on a signed-in page load the HTML paints the header and the page spinner
 * before the scripts arrive, and the app's first render replaces them. They must be what the app first renders,
 * or the page would jump (layout shift) when it does.
 */
const html = readFileSync(join(__dirname, '../../index.html'), 'utf8');
const shell = /<div id="app-shell">([\s\S]*)<\/div><\/div>\s*<script type="module"/.exec(html)?.[1];
const bootScript = /<script>([\s\S]*?)<\/script>/.exec(html)![1];

function App() {
  return useRoutes(routes);
}

afterEach(() => {
  document.cookie = 'portal_signed_in=; max-age=0; path=/';
  document.documentElement.classList.remove('portal-boot');
  delete window.__portalBoot;
});

it('when a signed-in page load has not yet heard back from the session, then the app renders exactly the shell of index.html', () => {
  document.cookie = 'portal_signed_in=1; path=/';
  window.__portalBoot = { token: new Promise(() => undefined), data: {} };
  const api = new FakeApi().install();
  try {
    const { container } = render(
      <AppProviders>
        <MemoryRouter initialEntries={['/shop']}>
          <App />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(shell).toBeDefined();
    expect(container.innerHTML).toBe(shell);
  } finally {
    api.uninstall();
  }
});

describe('the boot script shows the shell', () => {
  const runBoot = (path: string) => {
    window.history.replaceState(null, '', path);
    const api = new FakeApi().install();
    try {
      new Function(bootScript)();
    } finally {
      api.uninstall();
    }
    return document.documentElement.classList.contains('portal-boot');
  };

  it('when the browser is signed in, then on an app page', () => {
    document.cookie = 'portal_signed_in=1; path=/';
    expect(runBoot('/orders')).toBe(true);
  });

  it('when the browser is signed out, then not (the sign-in page has its own first paint)', () => {
    expect(runBoot('/shop')).toBe(false);
  });

  it('when the page is an invitation (no header), then not', () => {
    document.cookie = 'portal_signed_in=1; path=/';
    expect(runBoot('/invitation/accept?token=x')).toBe(false);
  });
});

describe('the logo is drawn inline (issue 26: no /favicon.svg request while a page loads)', () => {
  /** An SVG's shapes (its children, attribute quotes made double, self-closing tags expanded), to compare copies. */
  const shapes = (svg: string) =>
    /<svg[^>]*>([\s\S]*)<\/svg>/
      .exec(svg)![1]
      .replace(/'/g, '"')
      .replace(/<(\w+)([^>]*?)\s*\/>/g, '<$1$2></$1>');
  const favicon = readFileSync(join(__dirname, '../../public/favicon.svg'), 'utf8');

  it('when index.html names the page icon, then it is public/favicon.svg itself, as a data URL', () => {
    const href = /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,([^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(shapes(decodeURIComponent(href!))).toBe(shapes(favicon));
  });

  it('when the header draws the logo, then it is the drawing of public/favicon.svg', () => {
    const logo = /<a [^>]*href="\/"[^>]*>(<svg[\s\S]*?<\/svg>)/.exec(shell!)?.[1];
    expect(logo).toBeDefined();
    expect(shapes(logo!)).toBe(shapes(favicon));
  });
});
