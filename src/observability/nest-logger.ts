import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

import { requestLoggers } from './request-context';

const STACK = /\n\s+at /;

/**
 * Nest's `Logger` on pino: every `new Logger(context).log(...)` of the app (the error formatter's
 * included) becomes a pino line with its `context`, and with the request id when it is logged
 * while a request is handled. Pass it as `NestFactory.create(..., { logger })`.
 */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const logger = requestLoggers.getStore() ?? this.root;
    if (!logger.isLevelEnabled(level)) return;
    const rest = [...params];
    // Nest appends the Logger's context last; `error` passes a stack (or undefined) before it.
    const last = rest.at(-1);
    const context =
      typeof last === 'string' && (rest.length > 1 || !STACK.test(last))
        ? (rest.pop() as string)
        : undefined;
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    const stack = rest[0];
    if (
      rest.length > 0 &&
      (stack === undefined || (typeof stack === 'string' && STACK.test(stack)))
    ) {
      rest.shift();
      if (stack !== undefined) fields.stack = stack;
    }
    if (rest.length > 0) fields.details = rest;
    if (message instanceof Error) {
      logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, message: text, ...more } = message as Record<string, unknown>;
      logger[level]({ ...fields, ...more }, String(msg ?? text ?? ''));
    } else {
      logger[level](fields, String(message));
    }
  }
}
