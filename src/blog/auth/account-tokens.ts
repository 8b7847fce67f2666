import { createHash, randomBytes } from 'node:crypto';

/** What an account token is for; stored in `account_tokens.purpose`. */
export enum AccountTokenPurpose {
  PasswordReset = 'password_reset',
  EmailVerification = 'email_verification',
}

/** Random bytes in a token: 256 bits, beyond guessing. */
const TOKEN_BYTES = 32;

/** The length of a token: 32 bytes in URL-safe base64, unpadded. */
export const ACCOUNT_TOKEN_LENGTH = 43;

/** A new token: 32 random bytes, URL-safe base64 (43 characters), fit for a link's query. */
export function newAccountToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * What is stored of a token: its SHA-256, in hex. A token carries 256 random bits, so a fast
 * hash is enough (there is nothing to brute-force), and one lookup by the hash finds it; whoever
 * reads the table cannot use what they read.
 */
export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` has a token's form; anything else matches no row and is refused unread. */
export function isAccountTokenShaped(token: string): boolean {
  return token.length === ACCOUNT_TOKEN_LENGTH && /^[A-Za-z0-9_-]+$/.test(token);
}
