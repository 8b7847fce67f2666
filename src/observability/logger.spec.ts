import { Writable } from 'node:stream';

import { censorNested, createLogger, REDACTED_KEYS } from './logger';

function capture(logFormat: 'json' | 'pretty' = 'json') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'trace', logFormat }, stream) };
}

/** A secret of each kind, at the top of a line, one level down, and in a headers object. */
function secrets(tag: string) {
  const fields: Record<string, unknown> = {};
  const nested: Record<string, unknown> = { name: `kept-${tag}` };
  for (const key of REDACTED_KEYS) {
    fields[key] = `top-${key}-${tag}`;
    nested[key] = `nested-${key}-${tag}`;
  }
  return {
    ...fields,
    user: nested,
    request: { headers: { authorization: `bearer-${tag}`, cookie: `cookie-${tag}`, accept: 'a' } },
    headers: { authorization: `top-bearer-${tag}`, cookie: `top-cookie-${tag}`, host: 'h' },
    errorCodes: ['BAD_USER_INPUT'],
    count: 3,
    nothing: null,
  };
}

describe('createLogger', () => {
  it.each(['json', 'pretty'] as const)(
    'should censor credentials at the top of a line and one level down (%s)',
    (format) => {
      const { lines, logger } = capture(format);
      const fields = secrets('line');
      const before = JSON.stringify(fields);
      // A child's bindings are censored at their top level only (pino's formatters do not see
      // them): nothing here binds an object to a child logger.
      const { user: _user, request: _request, ...bindings } = secrets('binding');
      logger.child(bindings).info(fields, 'message');
      expect(lines).toHaveLength(1);
      const text = lines[0];
      expect(text).not.toMatch(/top-|nested-|bearer-|cookie-/);
      expect(text).toContain('kept-line');
      expect(text).toContain('BAD_USER_INPUT');
      // The caller's object is left as it was.
      expect(JSON.stringify(fields)).toBe(before);
      if (format === 'json') {
        const line = JSON.parse(text);
        expect(line).toMatchObject({
          password: '[redacted]',
          user: { name: 'kept-line', password: '[redacted]', token: '[redacted]' },
          request: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'a' } },
          headers: { authorization: '[redacted]', cookie: '[redacted]', host: 'h' },
          count: 3,
          nothing: null,
        });
      }
    },
  );
});

describe('the fields of each line', () => {
  it('should write the time in ISO 8601 and only the line’s own fields outside a span', () => {
    const { lines, logger } = capture();
    const before = Date.now();
    logger.info({ first: 1 }, 'one');
    logger.info({ second: 2 }, 'two');
    logger.child({ requestId: 'r-1' }).info('three');
    const after = Date.now();
    const [one, two, three] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of [one, two, three]) {
      expect(line.time).toBe(new Date(Date.parse(line.time as string)).toISOString());
      expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(line.time as string)).toBeLessThanOrEqual(after);
      expect(line).not.toHaveProperty('traceId');
      expect(line).not.toHaveProperty('spanId');
    }
    expect(one).toMatchObject({ first: 1, msg: 'one' });
    expect(two).toMatchObject({ second: 2, msg: 'two' });
    expect(two).not.toHaveProperty('first');
    expect(three).toMatchObject({ requestId: 'r-1', msg: 'three' });
    expect(three).not.toHaveProperty('second');
  });
});

describe('censorNested', () => {
  it('should give back the very fields when nothing is to be censored', () => {
    const fields = { a: { b: 1 }, list: [{ password: 'in a list is two levels down' }], s: 'x' };
    expect(censorNested(fields)).toBe(fields);
  });

  it('should censor only keys that hold something', () => {
    const fields = { user: { password: undefined, name: 'n' }, other: { token: '' } };
    expect(censorNested(fields)).toEqual({
      user: { password: undefined, name: 'n' },
      other: { token: '[redacted]' },
    });
  });
});
