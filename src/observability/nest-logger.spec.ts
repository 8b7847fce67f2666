import { Writable } from 'node:stream';

import pino from 'pino';

import { PinoLoggerService } from './nest-logger';
import { requestLoggers } from './request-context';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: pino({ level: 'trace' }, stream) };
}

describe('PinoLoggerService', () => {
  it("should write Nest's log calls with their context and level", () => {
    const { lines, logger } = capture();
    const service = new PinoLoggerService(logger);
    service.log('started', 'Bootstrap');
    service.warn('careful');
    service.verbose('detail', 'Loader');
    expect(lines).toMatchObject([
      { level: 30, msg: 'started', context: 'Bootstrap' },
      { level: 40, msg: 'careful' },
      { level: 10, msg: 'detail', context: 'Loader' },
    ]);
  });

  it('should keep the stack of an error apart from its context', () => {
    const { lines, logger } = capture();
    const service = new PinoLoggerService(logger);
    const stack = new Error('boom').stack!;
    service.error('failed', stack, 'GraphQL');
    service.error('failed without a stack', undefined, 'GraphQL');
    expect(lines[0]).toMatchObject({ level: 50, msg: 'failed', context: 'GraphQL', stack });
    expect(lines[1]).toEqual(
      expect.objectContaining({ msg: 'failed without a stack', context: 'GraphQL' }),
    );
    expect(lines[1]).not.toHaveProperty('stack');
  });

  it("should write through the request's logger while a request is handled", () => {
    const { lines, logger } = capture();
    const service = new PinoLoggerService(logger);
    requestLoggers.run(logger.child({ requestId: 'r-1' }), () => service.log('inside', 'X'));
    service.log('outside', 'X');
    expect(lines[0]).toMatchObject({ msg: 'inside', requestId: 'r-1' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('should spread an object message into fields', () => {
    const { lines, logger } = capture();
    new PinoLoggerService(logger).log({ msg: 'query', sql: 'SELECT 1' }, 'TypeORM');
    expect(lines[0]).toMatchObject({ msg: 'query', sql: 'SELECT 1', context: 'TypeORM' });
  });
});
