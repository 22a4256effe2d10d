import { PROBLEM_CODES, PROBLEM_CODE_VALUES } from './index';

const camel = (code: string) => code.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

describe('PROBLEM_CODES', () => {
  it('when listed, then every key is its code in camelCase and every code is snake_case and unique', () => {
    for (const [key, code] of Object.entries(PROBLEM_CODES)) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(key).toBe(camel(code));
    }
    expect(new Set(PROBLEM_CODE_VALUES).size).toBe(PROBLEM_CODE_VALUES.length);
  });
});
