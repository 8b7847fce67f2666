import { OPEN_TO_BANNED } from './bans';
import {
  EMAIL_NOT_VERIFIED,
  OPEN_TO_UNVERIFIED,
  unverifiedEmailRefusal,
} from './email-verification';

describe('unverifiedEmailRefusal', () => {
  it('should refuse an unverified viewer with FORBIDDEN and the reason, when required', () => {
    const refusal = unverifiedEmailRefusal({ emailVerified: false }, true);
    expect(refusal?.extensions).toEqual({ code: 'FORBIDDEN', reason: EMAIL_NOT_VERIFIED });
  });

  it('should let through a verified viewer, the anonymous, and anyone when not required', () => {
    expect(unverifiedEmailRefusal({ emailVerified: true }, true)).toBeNull();
    expect(unverifiedEmailRefusal(null, true)).toBeNull();
    expect(unverifiedEmailRefusal(undefined, true)).toBeNull();
    expect(unverifiedEmailRefusal({ emailVerified: false }, false)).toBeNull();
  });

  it('should leave open to the unverified whatever is open to the banned, and their address', () => {
    for (const mutation of OPEN_TO_BANNED) expect(OPEN_TO_UNVERIFIED).toContain(mutation);
    for (const mutation of ['requestEmailVerification', 'verifyEmail', 'updateProfile']) {
      expect(OPEN_TO_UNVERIFIED).toContain(mutation);
    }
    expect(OPEN_TO_UNVERIFIED).not.toContain('createPost');
  });
});
