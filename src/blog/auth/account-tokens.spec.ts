import {
  ACCOUNT_TOKEN_LENGTH,
  hashAccountToken,
  isAccountTokenShaped,
  newAccountToken,
} from './account-tokens';

describe('account tokens', () => {
  it('should be 32 random bytes in URL-safe base64, each new', () => {
    const tokens = new Set(Array.from({ length: 100 }, newAccountToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isAccountTokenShaped(token)).toBe(true);
    }
    expect(ACCOUNT_TOKEN_LENGTH).toBe(43);
  });

  it('should be stored as its SHA-256 in hex, never as itself', () => {
    const token = newAccountToken();
    const hash = hashAccountToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashAccountToken(token));
    expect(hash).not.toContain(token);
  });

  it('should refuse unread what cannot be a token', () => {
    for (const text of ['', 'short', `${'a'.repeat(42)}=`, `${'a'.repeat(42)} `, 'a'.repeat(44)]) {
      expect(isAccountTokenShaped(text)).toBe(false);
    }
  });
});
