import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';

import { ConnectionLimits } from './connection-limits';

/** A socket that records what it was answered and can be closed. */
function fakeSocket() {
  const socket = new EventEmitter() as EventEmitter & { ended?: string; end(data: string): void };
  socket.end = (data: string) => (socket.ended = data);
  return socket;
}

describe('ConnectionLimits', () => {
  it('should answer 429 to the connection past the cap of its client, and only to it', () => {
    const limits = new ConnectionLimits(2);
    const sockets = [fakeSocket(), fakeSocket(), fakeSocket()];
    const admitted = sockets.map((socket) => limits.admit('a', socket as unknown as Duplex));
    expect(admitted.map((release) => release !== null)).toEqual([true, true, false]);
    expect(sockets[2].ended).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(sockets[0].ended).toBeUndefined();
    expect(limits.admit('b', fakeSocket() as unknown as Duplex)).not.toBeNull();
  });

  it('should give the slot back once when the socket closes, however often it is released', () => {
    const limits = new ConnectionLimits(1);
    const first = fakeSocket();
    const release = limits.admit('a', first as unknown as Duplex);
    first.emit('close');
    release?.();
    expect(limits.admit('a', fakeSocket() as unknown as Duplex)).not.toBeNull();
    expect(limits.admit('a', fakeSocket() as unknown as Duplex)).toBeNull();
  });
});
