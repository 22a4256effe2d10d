import {
  ALL_PERMISSION_CODES,
  AUTH_MESSAGES,
  CARD_MESSAGES,
  DEFAULT_ROLES,
  PASSWORD_CHECKLIST,
  cardSchema,
  isExpirationValid,
  loginBodySchema,
  newPasswordSchema,
  passwordResetBodySchema,
  productsQuerySchema,
  updateCartItemBodySchema,
  updateProfileBodySchema,
} from './index';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('permission codes and roles (spec 000 §6, 002 §6)', () => {
  it('when the codes are listed, then all 27 spec codes are there and every role uses only known codes', () => {
    expect(ALL_PERMISSION_CODES).toHaveLength(27);
    for (const r of DEFAULT_ROLES) for (const p of r.permissions) expect(ALL_PERMISSION_CODES).toContain(p);
    const levels = DEFAULT_ROLES.map((r) => r.roleLevel);
    expect([...levels].sort((a, b) => a - b)).toEqual(levels);
  });
});

describe('auth schemas (spec 000 §5)', () => {
  it('when the login email is not an address or the password is empty, then the spec messages come back', () => {
    expect(messages(loginBodySchema.safeParse({ email: 'nope', password: '' }))).toEqual([
      AUTH_MESSAGES.invalidEmail,
      AUTH_MESSAGES.passwordRequired,
    ]);
    expect(loginBodySchema.parse({ email: '  Buyer@Example.com ', password: 'x' }).email).toBe('buyer@example.com');
  });

  it('when a new password misses a rule, then each missing rule has its message and the checklist agrees', () => {
    expect(messages(newPasswordSchema.safeParse('abc'))).toEqual([
      AUTH_MESSAGES.passwordMin,
      AUTH_MESSAGES.passwordUpper,
      AUTH_MESSAGES.passwordNumber,
      AUTH_MESSAGES.passwordSpecial,
    ]);
    expect(PASSWORD_CHECKLIST.map((c) => c.test('Portal#2026'))).toEqual([true, true, true, true, true]);
    expect(PASSWORD_CHECKLIST.map((c) => c.test('abc'))).toEqual([false, false, true, false, false]);
  });

  it('when the confirmation differs, then "Passwords don\'t match" is reported on confirmPassword', () => {
    const r = passwordResetBodySchema.safeParse({ token: 'x'.repeat(43), password: 'Portal#2026', confirmPassword: 'Portal#2027' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ message: "Passwords don't match", path: ['confirmPassword'] });
  });

  it('when the profile has blank names, then the spec messages come back; an empty phone becomes null', () => {
    expect(messages(updateProfileBodySchema.safeParse({ firstName: ' ', lastName: '' }))).toEqual([
      AUTH_MESSAGES.firstNameRequired,
      AUTH_MESSAGES.lastNameRequired,
    ]);
    expect(updateProfileBodySchema.parse({ firstName: 'A', lastName: 'B', phone: '' }).phone).toBeNull();
  });
});

describe('card rules (spec 002 §5)', () => {
  const good = { cardName: 'Pat Buyer', cardNumber: '4111 1111 1111 1111', expiration: '12/34', securityCode: '123', zipCode: '50309' };
  it('when every field breaks its rule, then each spec message comes back', () => {
    const r = cardSchema.safeParse({ cardName: '', cardNumber: '1234', expiration: '13/30', securityCode: '12', zipCode: '123' });
    expect(messages(r)).toEqual(
      expect.arrayContaining([
        CARD_MESSAGES.holderRequired,
        CARD_MESSAGES.number,
        CARD_MESSAGES.expiration,
        CARD_MESSAGES.securityCode,
        CARD_MESSAGES.zip,
      ]),
    );
  });
  it('when the card is good, then spaces are removed from the number', () => {
    expect(cardSchema.parse(good).cardNumber).toBe('4111111111111111');
  });
  it('when the expiration is last month or malformed, then it is refused; this month is accepted', () => {
    const now = new Date(2026, 10, 21);
    expect(isExpirationValid('11/26', now)).toBe(true);
    expect(isExpirationValid('10/26', now)).toBe(false);
    expect(isExpirationValid('00/30', now)).toBe(false);
    expect(isExpirationValid('1/30', now)).toBe(false);
  });
});

describe('catalog and cart limits (spec 001 §5, §9)', () => {
  it('when page size is omitted it is 30; above 100 it is refused', () => {
    expect(productsQuerySchema.parse({}).pageSize).toBe(30);
    expect(productsQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
  });
  it('when a quantity is above 999 or not whole, then it is refused', () => {
    expect(updateCartItemBodySchema.safeParse({ quantity: 1000 }).success).toBe(false);
    expect(updateCartItemBodySchema.safeParse({ quantity: 1.5 }).success).toBe(false);
    expect(updateCartItemBodySchema.safeParse({ quantity: 999 }).success).toBe(true);
    expect(updateCartItemBodySchema.safeParse({ quantity: 0 }).success).toBe(true);
  });
});
