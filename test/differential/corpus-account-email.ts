import type { CorpusLine } from './corpus';
import { ADA, PASSWORD } from './seed';

const UNKNOWN_TOKEN = 'A'.repeat(43);
const PROFILE =
  'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { id email emailVerified } }';

/**
 * Account e-mail (issue 67): `User.emailVerified` as each viewer sees it, and every refusal of
 * the four mutations. Tokens are random, so no line follows a mailed link (the e2e suite does,
 * test/account-email.e2e-spec.ts); the lines that mail leave rows whose token hashes the
 * normaliser numbers, and their mails are written as `.eml` files, sent before the tables are
 * read. Ada's address is verified in the seed, the others' are not.
 */
// prettier-ignore
export const mailing: CorpusLine[] = [
  ['emailVerified: me, Bob', '{ me { id email emailVerified } }', null, 'user'],
  ['emailVerified: me, the admin', '{ me { id email emailVerified } }', null, 'admin'],
  ['emailVerified: every user, anonymous', '{ users { handle email emailVerified } }'],
  ['emailVerified: every user, as Bob', '{ users { handle email emailVerified } }', null, 'user'],
  ['emailVerified: every user, as the admin', '{ users { handle email emailVerified } }', null, 'admin'],
  ['emailVerified: Ada, as Cyd', `{ user(id: "${ADA}") { handle emailVerified } }`, null, 'other'],
  ['emailVerified: authors of posts', '{ posts { id author { handle emailVerified } } }', null, 'user'],
  ['requestPasswordReset: a known address', 'mutation { requestPasswordReset(email: "bob@example.com") }'],
  ['requestPasswordReset: a known address, other case', 'mutation { requestPasswordReset(email: " BOB@Example.com ") }'],
  ['requestPasswordReset: an unknown address', 'mutation { requestPasswordReset(email: "nobody@example.com") }'],
  ['requestPasswordReset: not an address', 'mutation { requestPasswordReset(email: "bob") }'],
  ['requestPasswordReset: too long', `mutation { requestPasswordReset(email: "${'x'.repeat(250)}@example.com") }`],
  ['requestPasswordReset: signed in', 'mutation { requestPasswordReset(email: "cyd@example.com") }', null, 'other'],
  ['requestPasswordReset: no address', 'mutation { requestPasswordReset }'],
  ['resetPassword: an unknown token', `mutation { resetPassword(token: "${UNKNOWN_TOKEN}", newPassword: "long enough pw") { token } }`],
  ['resetPassword: not a token', 'mutation { resetPassword(token: "abc", newPassword: "long enough pw") { token } }'],
  ['resetPassword: a token too long', `mutation { resetPassword(token: "${'A'.repeat(201)}", newPassword: "long enough pw") { token } }`],
  ['resetPassword: a short new password', `mutation { resetPassword(token: "${UNKNOWN_TOKEN}", newPassword: "short") { token } }`],
  ['resetPassword: with another field', `mutation { resetPassword(token: "${UNKNOWN_TOKEN}", newPassword: "long enough pw") { token } me: logOutEverywhere }`, null, 'user'],
  ['resetPassword: variables', 'mutation ($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) { user { id } } }', { t: UNKNOWN_TOKEN, p: 'long enough pw' }],
  ['verifyEmail: an unknown token', `mutation { verifyEmail(token: "${UNKNOWN_TOKEN}") { id emailVerified } }`],
  ['verifyEmail: not a token', 'mutation { verifyEmail(token: "") { id } }', null, 'user'],
  ['requestEmailVerification: Bob', 'mutation { requestEmailVerification }', null, 'user'],
  ['requestEmailVerification: verified already', 'mutation { requestEmailVerification }', null, 'admin'],
  ['requestEmailVerification: anonymous', 'mutation { requestEmailVerification }'],
  ['updateProfile: a new email without the password', 'mutation { updateProfile(input: {email: "robert@example.com"}) { email emailVerified } }', null, 'user'],
  ['updateProfile: a new email with a wrong password', 'mutation { updateProfile(input: {email: "robert@example.com", currentPassword: "not it at all"}) { email } }', null, 'user'],
  ['updateProfile: a new email with the password', `mutation { updateProfile(input: {email: "Robert@Example.com", currentPassword: "${PASSWORD}"}) { id email emailVerified } }`, null, 'user'],
  ['updateProfile: a new email and a name', PROFILE, { input: { name: 'Robert', email: 'robert@example.com', currentPassword: PASSWORD } }, 'user'],
  ['updateProfile: an email taken', `mutation { updateProfile(input: {name: "Not Kept", email: "cyd@example.com", currentPassword: "${PASSWORD}"}) { name email } }`, null, 'user'],
  ['updateProfile: the same email, no password', 'mutation { updateProfile(input: {email: "BOB@example.com"}) { email emailVerified } }', null, 'user'],
  ['updateProfile: not an email', `mutation { updateProfile(input: {email: "bob", currentPassword: "${PASSWORD}"}) { email } }`, null, 'user'],
  ['updateProfile: a new email, anonymous', `mutation { updateProfile(input: {email: "anon@example.com", currentPassword: "${PASSWORD}"}) { email } }`],
];
