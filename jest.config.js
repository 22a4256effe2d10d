// Jest projects: contracts (node), tooling (node: the repository's scripts, e.g. the lock file's platform
// check), api (node + real PostgreSQL, one database per file), web (jsdom with Node's fetch API), e2e (Playwright journeys through
// the built SPA and API), and slow: every `*.slow.test.ts` (fuzz, throughput, CLI commands spawned as child
// processes, the real-data import), with the api project's setup. Run through `npm test` (scripts/test.mjs:
// every project but slow), `npm run test:slow` (slow only) or `npm run test:all` (both).
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' },
    module: { type: 'commonjs' },
  },
];
const esmPackages = ['pg-boss', 'serialize-error', 'rrule-temporal', 'non-error', 'cron-parser', 'luxon', 'ky'].join('|');
const common = {
  transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.mjs$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/)`],
  moduleNameMapper: {
    '^@portal/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '^@portal/migrations$': '<rootDir>/migrations/index.ts',
    '^@portal/seeds$': '<rootDir>/seeds/index.ts',
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  // A `*.slow.test.ts` belongs to the slow project only, wherever it lives.
  testPathIgnorePatterns: ['/node_modules/', '\\.slow\\.test\\.'],
};
/** The api project's node environment, outbound block and template database (apps/api/src/test/global-setup.ts). */
const apiSetup = {
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/apps/api/src/test/block-outbound.ts'],
  globalSetup: '<rootDir>/apps/api/src/test/global-setup.ts',
  globalTeardown: '<rootDir>/apps/api/src/test/global-teardown.ts',
};
module.exports = {
  projects: [
    { ...common, displayName: 'contracts', testEnvironment: 'node', roots: ['<rootDir>/libs/contracts'] },
    { ...common, displayName: 'tooling', testEnvironment: 'node', roots: ['<rootDir>/scripts'], testMatch: ['**/*.test.ts'] },
    { ...common, ...apiSetup, displayName: 'api', roots: ['<rootDir>/apps/api'] },
    {
      ...common,
      displayName: 'web',
      testEnvironment: '<rootDir>/apps/web/src/test/environment.mjs',
      roots: ['<rootDir>/apps/web'],
      setupFilesAfterEnv: ['<rootDir>/apps/web/src/test/setup.ts'],
      moduleNameMapper: {
        ...common.moduleNameMapper,
        '^@/(.*)$': '<rootDir>/apps/web/src/$1',
        '\\.(css|svg|png|jpg|webp)$': 'identity-obj-proxy',
      },
    },
    {
      ...common,
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/e2e'],
      globalSetup: '<rootDir>/e2e/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/e2e/skip-without-browser.ts'],
      globalTeardown: '<rootDir>/apps/api/src/test/global-teardown.ts',
    },
    {
      ...common,
      ...apiSetup,
      displayName: 'slow',
      roots: ['<rootDir>/apps/api', '<rootDir>/scripts'],
      testMatch: ['**/*.slow.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
  ],
  testTimeout: 30000,
};
