import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// findBy…/waitFor wait up to 5 s instead of Testing Library's 1 s: on a slow 2-core machine running the whole suite
// (the API's tests and PostgreSQL beside two jest workers) a screen's first answer and deferred render took longer
// than 1 s (Store Orders' tab counts, 2026-11-27). What is awaited is the same; a test that fails still fails.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these; react-router needs them.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom lacks what cmdk and Radix Popover measure with (the AsyncCombobox pickers).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
