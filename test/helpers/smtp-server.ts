import type { AddressInfo } from 'node:net';

import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, SMTPServerSession } from 'smtp-server';

/** One mail the server took, parsed by mailparser, with how it came. */
export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  parsed: ParsedMail;
  /** Whether the session ran over TLS (STARTTLS here). */
  secure: boolean;
}

/** An SMTP error with the answer code the server sends. */
function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * A real SMTP server (the `smtp-server` package) on a free port of 127.0.0.1, for the tests of
 * account e-mail: it parses each mail it takes with `mailparser` before it answers, so a mail is
 * in {@link received} once the sender has been told it was taken. It can refuse the next mails
 * (a 4xx answer: try again later), or a recipient for good (550).
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** How many of the next mails to refuse with 451. */
  private refusals = 0;
  private readonly refusedRecipients = new Set<string>();

  private readonly server: SMTPServer;
  private listeningPort = 0;

  private constructor(startTls: boolean) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: startTls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refusedRecipients.has(address.address.toLowerCase())) {
          callback(smtpError('Mailbox unavailable', 550));
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        void this.take(stream, session).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      },
    });
  }

  /**
   * Starts a server; `startTls` offers STARTTLS (with smtp-server's own self-signed
   * certificate), otherwise the server speaks plain SMTP only.
   */
  static async start({ startTls = false }: { startTls?: boolean } = {}): Promise<TestSmtpServer> {
    const instance = new TestSmtpServer(startTls);
    await new Promise<void>((resolve, reject) => {
      instance.server.once('error', reject);
      instance.server.listen(0, '127.0.0.1', () => resolve());
    });
    instance.listeningPort = (instance.server.server.address() as AddressInfo).port;
    return instance;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** `smtp://` on this server, for SMTP_URL; `query` is the URL's query, without `?`. */
  url(query = ''): string {
    return `smtp://127.0.0.1:${this.port}${query ? `?${query}` : ''}`;
  }

  /** Answers the next `count` mails with 451 (a failure to try again later). */
  refuseNext(count: number): void {
    this.refusals = count;
  }

  /** Answers every mail to `address` with 550 at RCPT TO: a failure for good. */
  refuseRecipient(address: string): void {
    this.refusedRecipients.add(address.toLowerCase());
  }

  /** The mails taken for `address`, in order. */
  mailsTo(address: string): ReceivedMail[] {
    const wanted = address.toLowerCase();
    return this.received.filter((mail) => mail.to.includes(wanted));
  }

  /** Waits until a mail for `address` has come (the `index`-th one), at most `timeoutMs`. */
  async waitForMail(address: string, index = 0, timeoutMs = 15_000): Promise<ReceivedMail> {
    for (const deadline = Date.now() + timeoutMs; ;) {
      const mail = this.mailsTo(address)[index];
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`No mail #${index + 1} to ${address} came`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async take(stream: NodeJS.ReadableStream, session: SMTPServerSession): Promise<void> {
    const parsed = await simpleParser(stream as never);
    if (this.refusals > 0) {
      this.refusals -= 1;
      throw smtpError('Try again later', 451);
    }
    this.received.push({
      to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
      parsed,
      secure: session.secure,
    });
  }
}
