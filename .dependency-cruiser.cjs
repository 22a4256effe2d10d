/**
 * Import rules of the API (issue 25 item 2, STYLE.md "One-way imports"), checked by `npm run depcruise`
 * (CI: .ci/run and .github/workflows/ci.yml, before lint). Every rule is an error: the run fails on any.
 *
 * The API's layers, top to bottom (a file imports only its own layer or the ones below):
 *   1. composition  main.ts, app.ts, routes.ts: build the app, start the jobs, register the listeners.
 *   2. jobs         jobs/**: background workers (pg-boss, janitors, the importer's process); main.ts alone starts them.
 *   3. routes       modules/<name>/<name>.routes.ts: HTTP only (scope → schema → service → response).
 *   4. http         http/** except its foundation files below: Express glue (route table, authentication,
 *                   rate limits, bulk bodies, OpenAPI, problem responses).
 *   5. modules      modules/** other than routes: services, repositories and their helpers.
 *   6. foundation   config.ts, logger.ts, context.ts, start-banner.ts, lib/**, db/**, and the two http files
 *                   every layer uses: http/errors (the typed errors services throw) and http/metrics (counters).
 * Tests, test support, the fault harness (faults/) and the contracts lib are outside the layers.
 */

const SRC = '^apps/api/src/';
const COMPOSITION = `${SRC}(main|app|routes)\\.ts$`;
const JOBS = `${SRC}jobs/`;
const ROUTES = `${SRC}modules/[^/]+/[^/]+\\.routes\\.ts$`;
const FOUNDATION_HTTP = `${SRC}http/(errors|metrics)(/|\\.ts$|\\.repository\\.ts$)`;
const HTTP = `${SRC}http/`;
const MODULES = `${SRC}modules/`;
const FOUNDATION = `${SRC}((config|logger|context|start-banner)\\.ts$|lib/|db/)`;
const TESTS = '(\\.test\\.tsx?$|/test/|test-support\\.ts$|/faults/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files never import each other in a loop (a loop means two files are one idea, or one idea is in the wrong file).',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'no-module-cycle',
      severity: 'error',
      scope: 'folder',
      comment:
        'Folder level: no two API modules (modules/<name>) import each other, directly or around a loop of modules. ' +
        'Shared pieces move down to the lower module, to modules/access or to lib/.',
      from: { path: `${SRC}modules/[^/]+$` },
      to: { path: `${SRC}modules/[^/]+$`, circular: true },
    },
    {
      name: 'jobs-only-from-main',
      severity: 'error',
      comment: 'Background jobs are started by main.ts alone; nothing else (but the jobs themselves and tests) imports jobs/.',
      from: { path: SRC, pathNot: [`${SRC}main\\.ts$`, JOBS, TESTS] },
      to: { path: JOBS },
    },
    {
      name: 'other-modules-through-their-service',
      severity: 'error',
      comment:
        'A module uses another module through its service files (*.service.ts), never its repository, routes or helpers. ' +
        'modules/access is the shared kernel of scope rules and principals: any of its files may be used.',
      from: { path: `${SRC}modules/([^/]+)/`, pathNot: TESTS },
      to: {
        path: `${SRC}modules/[^/]+/`,
        pathNot: [`${SRC}modules/$1/`, `${SRC}modules/[^/]+/[^/]+\\.service\\.ts$`, `${SRC}modules/access/(?!.*\\.repository\\.ts$)`],
      },
    },
    {
      name: 'no-repository-of-another-module',
      severity: 'error',
      comment: "A module is used by others through its service: no file imports another module's repository.",
      from: { path: `${SRC}modules/([^/]+)/`, pathNot: TESTS },
      to: { path: `${SRC}modules/[^/]+/[^/]+\\.repository\\.ts$`, pathNot: `${SRC}modules/$1/` },
    },
    {
      name: 'foundation-imports-only-foundation',
      severity: 'error',
      comment: 'Layer 6 (config, logger, context, lib, db, http/errors, http/metrics) imports nothing above it.',
      from: { path: [FOUNDATION, FOUNDATION_HTTP] },
      to: { path: SRC, pathNot: [FOUNDATION, FOUNDATION_HTTP] },
    },
    {
      name: 'modules-not-up',
      severity: 'error',
      comment: 'Layer 5 (services, repositories) imports no route file, no Express glue in http/, no job and no composition file.',
      from: { path: MODULES, pathNot: [ROUTES, TESTS] },
      to: { path: [ROUTES, HTTP, JOBS, COMPOSITION], pathNot: FOUNDATION_HTTP },
    },
    {
      name: 'http-not-up',
      severity: 'error',
      comment: 'Layer 4 (http/) imports no route file, no job and no composition file.',
      from: { path: HTTP, pathNot: [FOUNDATION_HTTP, TESTS] },
      to: { path: [ROUTES, JOBS, COMPOSITION] },
    },
    {
      name: 'routes-not-up',
      severity: 'error',
      comment: "Layer 3 (route files) imports no other module's route file, no job and no composition file.",
      from: { path: `${SRC}modules/([^/]+)/[^/]+\\.routes\\.ts$` },
      to: { path: [JOBS, COMPOSITION, `${SRC}modules/[^/]+/[^/]+\\.routes\\.ts$`], pathNot: `${SRC}modules/$1/` },
    },
    {
      name: 'jobs-not-up',
      severity: 'error',
      comment: 'Layer 2 (jobs/) imports no route file and no composition file.',
      from: { path: JOBS, pathNot: TESTS },
      to: { path: [ROUTES, COMPOSITION] },
    },
    {
      name: 'web-never-imports-api',
      severity: 'error',
      comment: 'The web app talks to the API over HTTP only; shared shapes come from libs/contracts.',
      from: { path: '^apps/web/' },
      to: { path: '^apps/api/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests and test support are outside the layers (they may reach anything they exercise).
    exclude: { path: ['node_modules', '\\.d\\.ts$', TESTS] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
