import { hasRecoveryType, readRecoveryLink } from './recovery';
import { BACKGROUND_COUNT, backgroundUrl, pickBackground } from './backgrounds';

describe('recovery link detection (spec 000 §2)', () => {
  it('when the mail link /auth?intent=recovery#token=… is opened, then the token is read from the hash', () => {
    expect(readRecoveryLink('?intent=recovery', '#token=abc123')).toEqual({ token: 'abc123' });
  });
  it('when type=recovery comes with access and refresh tokens in the hash, then it is a recovery link', () => {
    expect(readRecoveryLink('', '#access_token=t1&refresh_token=r1&type=recovery')).toEqual({ token: 't1' });
  });
  it('when type=recovery comes without tokens, or nothing says recovery, then it is not a recovery link', () => {
    expect(readRecoveryLink('?type=recovery', '')).toBeNull();
    expect(readRecoveryLink('?mode=forgot', '#token=abc')).toBeNull();
  });
  it('when intent=recovery has no token, then the link is a recovery link without token (invalid link screen)', () => {
    expect(readRecoveryLink('?intent=recovery', '')).toEqual({ token: null });
  });
  it('when the root path hash names a recovery type, then hasRecoveryType is true', () => {
    expect(hasRecoveryType('', '#type=recovery&access_token=x')).toBe(true);
    expect(hasRecoveryType('', '#profile-info')).toBe(false);
  });
});

describe('auth backgrounds (spec 000 §9)', () => {
  it('when a visit starts, then one of 14 pictures is picked', () => {
    expect(BACKGROUND_COUNT).toBe(14);
    expect(pickBackground(() => 0)).toBe('/backgrounds/background-01.svg');
    expect(pickBackground(() => 0.9999)).toBe('/backgrounds/background-14.svg');
    expect(backgroundUrl(7)).toBe('/backgrounds/background-07.svg');
  });
});
