import { mkdir, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';

import type { Transporter } from 'nodemailer';

import type { MailSettings } from './mail-options';

/** One mail as it goes out: the outbox row, with the From. */
export interface MailMessage {
  /** The outbox row's id: the Message-ID's local part and the `.eml` file's name. */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** Sends mails: over SMTP, or into `.eml` files. */
export interface MailTransport {
  /** Where the mails go, for the start-up log line (never the SMTP password). */
  readonly description: string;
  /** Resolves once the mail is handed over; rejects with the reason it was not. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** How long nodemailer waits for a connection, the greeting, and any answer after it. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The Message-ID of a mail: the same on every attempt, so that receivers can drop a repeat. */
function messageId(message: MailMessage): string {
  const at = message.from.lastIndexOf('@');
  const domain = message.from.slice(at + 1).replace(/[>\s]/g, '') || 'localhost';
  return `<${message.id}@${domain}>`;
}

function mailOf(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers,
    messageId: messageId(message),
  };
}

/** Whether `hostname` (a URL's, IPv6 in brackets) is this machine: its mail never leaves it. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name.startsWith('::ffff:127.');
}

/**
 * nodemailer's SMTP options of `url`: those the URL gives (its query sets any other option, as
 * nodemailer reads it), over timeouts that keep a hung server from holding a send, and, on
 * `smtp://`, STARTTLS required: a server that offers none gets no mail. The URL may say
 * otherwise (`requireTLS=false`). A server on this machine (`localhost`, `127.0.0.1`, `::1`),
 * such as a local relay or a test's, is upgraded when it offers STARTTLS, without checking its
 * certificate (seldom one a client could check), and spoken to in plain SMTP when it does not:
 * nothing crosses a network. The URL may require TLS there too (`requireTLS=true`).
 */
export function smtpOptions(url: string): Record<string, unknown> {
  // Required here, not imported, so that a service that sends no mail never loads nodemailer.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseConnectionUrl } = require('nodemailer/lib/shared') as {
    parseConnectionUrl: (url: string) => Record<string, unknown>;
  };
  const parsed = parseConnectionUrl(url);
  const { protocol, hostname } = new URL(url);
  const startTls =
    protocol !== 'smtp:'
      ? {}
      : isLoopbackHostname(hostname)
        ? { tls: { rejectUnauthorized: false } }
        : { requireTLS: true };
  return { ...SMTP_TIMEOUTS, ...startTls, ...parsed };
}

/** Mail over SMTP, one connection per mail (account mail is rare), through nodemailer. */
class SmtpTransport implements MailTransport {
  readonly description: string;
  private transporter: Transporter | null = null;

  constructor(private readonly url: string) {
    const { protocol, hostname, port } = new URL(url);
    this.description = `${protocol}//${hostname}${port ? `:${port}` : ''}`;
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport().sendMail(mailOf(message));
  }

  close(): void {
    this.transporter?.close();
  }

  private transport(): Transporter {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    this.transporter ??= nodemailer.createTransport(smtpOptions(this.url));
    return this.transporter;
  }
}

/**
 * Mail written to files: `<directory>/<id>.eml`, the whole message as an SMTP server would
 * receive it, readable by any mail client. Only the service's user may read them: their links
 * reset passwords.
 */
class EmlFileTransport implements MailTransport {
  readonly description: string;

  constructor(private readonly directory: string) {
    this.description = `.eml files in ${directory}`;
  }

  async send(message: MailMessage): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const info = await composer.sendMail(mailOf(message));
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await writeFile(join(this.directory, `${message.id}.eml`), info.message as Buffer, {
      mode: 0o600,
    });
  }

  close(): void {}
}

/** The transport the settings name; null when they name none (no mail is sent). */
export function createMailTransport(transport: MailSettings['transport']): MailTransport | null {
  if (!transport) return null;
  return 'smtpUrl' in transport
    ? new SmtpTransport(transport.smtpUrl)
    : new EmlFileTransport(transport.directory);
}

/** Whether a send failed for good: the server refused the recipient with a 5xx answer. */
export function isPermanentFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500;
}
