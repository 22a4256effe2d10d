/**
 * E2E setup (setupFilesAfterEnv): when the global setup found no browser (E2E_SKIP_REASON, printed there
 * once), every journey of the file is registered as skipped, so its beforeAll (database, portal, browser)
 * never runs and the run reports the journeys as skipped instead of failing.
 */
if (process.env.E2E_SKIP_REASON) {
  const g = globalThis as unknown as { it: jest.It; test: jest.It };
  g.it = it.skip;
  g.test = test.skip;
}
