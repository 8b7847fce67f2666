import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';

import { ConnectionsPerClient } from './connections-per-client';

/** A socket as the cap sees it: it can close, and be destroyed. */
function socket(): Duplex & { destroyed: boolean } {
  const fake = new EventEmitter() as EventEmitter & { destroyed: boolean; destroy(): void };
  fake.destroyed = false;
  fake.destroy = () => {
    fake.destroyed = true;
    fake.emit('close');
  };
  return fake as unknown as Duplex & { destroyed: boolean };
}

describe('ConnectionsPerClient', () => {
  it('should close the longest-idle connection of a client at its cap to admit a new one', () => {
    const cap = new ConnectionsPerClient(2);
    const [first, second, third] = [socket(), socket(), socket()];
    expect(cap.admit(first, 'a')).toBe(true);
    expect(cap.admit(second, 'a')).toBe(true);
    cap.requestStarted(second);
    cap.requestEnded(second);
    expect(cap.admit(third, 'a')).toBe(true);
    expect([first.destroyed, second.destroyed, third.destroyed]).toEqual([true, false, false]);
    expect(cap.open('a')).toBe(2);
  });

  it('should refuse a new connection when every one of the client is busy or a WebSocket', () => {
    const cap = new ConnectionsPerClient(2);
    const [busy, upgraded] = [socket(), socket()];
    cap.admit(busy, 'a');
    cap.requestStarted(busy);
    cap.admit(upgraded, 'a');
    cap.upgraded(upgraded);
    expect(cap.admit(socket(), 'a')).toBe(false);
    expect(busy.destroyed || upgraded.destroyed).toBe(false);
    expect(cap.admit(socket(), 'b')).toBe(true);
    cap.requestEnded(busy);
    expect(cap.admit(socket(), 'a')).toBe(true);
    expect(busy.destroyed).toBe(true);
  });

  it('should give the place back when a connection closes, and move one to its new client', () => {
    const cap = new ConnectionsPerClient(1);
    const shared = socket();
    cap.admit(shared, 'a');
    cap.requestStarted(shared);
    expect(cap.admit(shared, 'b')).toBe(true);
    expect([cap.open('a'), cap.open('b')]).toEqual([0, 1]);
    expect(cap.admit(socket(), 'b')).toBe(false);
    shared.emit('close');
    expect(cap.open('b')).toBe(0);
    expect(cap.admit(socket(), 'b')).toBe(true);
  });
});
