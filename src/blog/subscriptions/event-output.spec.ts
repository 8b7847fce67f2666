import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { WebSocket } from 'ws';

import { EventOutput } from './event-output';
import { responseTooLargeResult } from '../common/response-size';

describe('EventOutput', () => {
  const output = new EventOutput(1_024, false);
  const socket = {} as WebSocket;
  const args = () => ({ contextValue: {} }) as ExecutionArgs;

  it('should send an event within the limit as it is', () => {
    expect(output.next(socket, args(), { data: { a: 'b' } })).toBeUndefined();
  });

  it('should replace an event past the limit, or longer than a string can be, by RESPONSE_TOO_LARGE', () => {
    const tooLongForAString = {
      toJSON() {
        throw new RangeError('Invalid string length');
      },
    };
    for (const data of [{ a: 'x'.repeat(2_000) }, { a: tooLongForAString }]) {
      expect(output.next(socket, args(), { data } as ExecutionResult)).toEqual(
        responseTooLargeResult(1_024),
      );
    }
  });
});
