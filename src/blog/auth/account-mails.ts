import { AccountTokenPurpose } from './account-tokens';

/** What an account mail says: its subject, and its body as plain text and as HTML. */
export interface AccountMailContent {
  subject: string;
  text: string;
  html: string;
}

/** What an account mail is made of. */
export interface AccountMailFacts {
  /** The account's display name, as its owner wrote it. */
  name: string;
  /** The link with its token. */
  link: string;
  /** The site's host name, for the subject and the greeting. */
  host: string;
  /** How long the link works, in ms. */
  ttlMs: number;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` as HTML text or a quoted attribute value: every markup character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/** A lifetime in words: `30 minutes`, `24 hours`, `7 days` (whole units, rounded down). */
export function lifetimeInWords(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) {
      const count = ms / size;
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  const seconds = Math.max(1, Math.floor(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** One line of text: no line breaks from a display name. */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();

interface Wording {
  subject: (host: string) => string;
  ask: (host: string) => string;
  action: string;
  otherwise: string;
}

const WORDING: Record<AccountTokenPurpose, Wording> = {
  [AccountTokenPurpose.PasswordReset]: {
    subject: (host) => `Reset your password on ${host}`,
    ask: (host) => `Someone asked to reset the password of your account on ${host}.`,
    action: 'Choose a new password',
    otherwise:
      'If it was not you, ignore this mail: your password stays as it is. The link works once.',
  },
  [AccountTokenPurpose.EmailVerification]: {
    subject: (host) => `Confirm your email address on ${host}`,
    ask: (host) => `Please confirm that this address is yours, for your account on ${host}.`,
    action: 'Confirm this address',
    otherwise:
      'If you did not make an account there, ignore this mail: nothing happens. The link works once.',
  },
};

/** The HTML part of an account mail: a greeting of `name`, then `paragraphs`, already HTML. */
function htmlMail(name: string, paragraphs: string[]): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"></head><body>',
    `<p>Hello ${escapeHtml(name)},</p>`,
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    '</body></html>',
    '',
  ].join('\n');
}

/** The mail of `purpose`, in plain text and in HTML, with everything interpolated escaped. */
export function accountMail(
  purpose: AccountTokenPurpose,
  facts: AccountMailFacts,
): AccountMailContent {
  const wording = WORDING[purpose];
  const name = oneLine(facts.name) || 'there';
  const expiry = `The link works for ${lifetimeInWords(facts.ttlMs)}.`;
  const text = [
    `Hello ${name},`,
    '',
    wording.ask(facts.host),
    `${wording.action}: ${facts.link}`,
    '',
    expiry,
    wording.otherwise,
    '',
  ].join('\n');
  const html = htmlMail(name, [
    escapeHtml(wording.ask(facts.host)),
    `<a href="${escapeHtml(facts.link)}">${escapeHtml(wording.action)}</a>`,
    `${escapeHtml(expiry)} ${escapeHtml(wording.otherwise)}`,
    `Or open this address: ${escapeHtml(facts.link)}`,
  ]);
  return { subject: wording.subject(facts.host), text, html };
}

/**
 * The mail to an account's former address once the account has moved to another: what happened
 * and what to do, with no link and without the new address (which the former address's owner
 * need not be told).
 */
export function emailChangedMail(
  facts: Pick<AccountMailFacts, 'name' | 'host'>,
): AccountMailContent {
  const name = oneLine(facts.name) || 'there';
  const said = `The email address of your account on ${facts.host} was changed: this address no longer signs in to it.`;
  const otherwise =
    'If you made the change, there is nothing more to do. If not, someone else may hold your account: tell the site at once.';
  const text = [`Hello ${name},`, '', said, otherwise, ''].join('\n');
  const html = htmlMail(name, [escapeHtml(said), escapeHtml(otherwise)]);
  return { subject: `Your email address on ${facts.host} was changed`, text, html };
}
