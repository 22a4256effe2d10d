import { loginBodySchema } from './auth';
import { optionalPhoneSchema, phoneSchema, setPhoneNormalizer } from './phone';

describe('phone schemas (issue 26 §7)', () => {
  it('when no normaliser is installed (the SPA), then a phone-like text is kept as typed and anything else refused', () => {
    expect(phoneSchema.parse(' (515) 555-0100 ')).toBe('(515) 555-0100');
    expect(phoneSchema.safeParse('515').success).toBe(false);
    expect(phoneSchema.safeParse('call me maybe').success).toBe(false);
    expect(optionalPhoneSchema.parse('')).toBeNull();
  });

  it('when the API installs its normaliser, then phones are answered as it normalises them, refused when it says no', () => {
    setPhoneNormalizer((t) => (t.replace(/\D/g, '').length === 10 ? `+1${t.replace(/\D/g, '')}` : undefined));
    expect(loginBodySchema.parse({ phone: '515-555-0100', password: 'x' })).toEqual({ phone: '+15155550100', password: 'x' });
    expect(optionalPhoneSchema.parse('(515) 555-0100')).toBe('+15155550100');
    expect(optionalPhoneSchema.safeParse('+44 20 7946 0958 1').success).toBe(false);
  });
});
