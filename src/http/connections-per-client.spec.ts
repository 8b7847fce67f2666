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

/** A cap of `max` per client on a clock the test moves, with a grace period of 1000 ms. */
function capOf(max: number | ((client: string) => number)) {
  const clock = { now: 0 };
  const cap = new ConnectionsPerClient({ max, idleGraceMs: 1000, now: () => clock.now });
  return { cap, clock };
}

/** A socket of `client` that has carried one request, answered now. */
function answered(cap: ConnectionsPerClient, client: string) {
  const served = socket();
  expect(cap.admit(served, client)).toBe(true);
  cap.requestStarted(served);
  cap.requestEnded(served);
  return served;
}

describe('ConnectionsPerClient', () => {
  it('should close the longest-idle connection of a client at its cap to admit a new one', () => {
    const { cap, clock } = capOf(2);
    const first = answered(cap, 'a');
    clock.now = 100;
    const second = answered(cap, 'a');
    clock.now = 1200;
    const third = socket();
    expect(cap.admit(third, 'a')).toBe(true);
    expect([first.destroyed, second.destroyed, third.destroyed]).toEqual([true, false, false]);
    expect(cap.open('a')).toBe(2);
  });

  it('should close no connection idle for less than the grace period: its client may be reusing it', () => {
    const { cap, clock } = capOf(2);
    const [first, second] = [answered(cap, 'a'), answered(cap, 'a')];
    clock.now = 999;
    expect(cap.admit(socket(), 'a')).toBe(false);
    expect(first.destroyed || second.destroyed).toBe(false);
    clock.now = 1000;
    expect(cap.admit(socket(), 'a')).toBe(true);
    expect(first.destroyed).toBe(true);
  });

  it('should never close a connection that has carried no request yet', () => {
    const { cap, clock } = capOf(1);
    const silent = socket();
    cap.admit(silent, 'a');
    clock.now = 60_000;
    expect(cap.admit(socket(), 'a')).toBe(false);
    expect(silent.destroyed).toBe(false);
  });

  it('should not make room when told not to', () => {
    const { cap, clock } = capOf(1);
    const idle = answered(cap, 'a');
    clock.now = 5000;
    expect(cap.admit(socket(), 'a', false)).toBe(false);
    expect(idle.destroyed).toBe(false);
    expect(cap.admit(socket(), 'a')).toBe(true);
    expect(idle.destroyed).toBe(true);
  });

  it('should refuse a new connection when every one of the client is busy or a WebSocket', () => {
    const { cap, clock } = capOf(2);
    const [busy, upgraded] = [socket(), socket()];
    cap.admit(busy, 'a');
    cap.requestStarted(busy);
    cap.admit(upgraded, 'a');
    cap.upgraded(upgraded);
    clock.now = 5000;
    expect(cap.admit(socket(), 'a')).toBe(false);
    expect(busy.destroyed || upgraded.destroyed).toBe(false);
    expect(cap.admit(socket(), 'b')).toBe(true);
    cap.requestEnded(busy);
    clock.now = 6000;
    expect(cap.admit(socket(), 'a')).toBe(true);
    expect(busy.destroyed).toBe(true);
  });

  it('should give each client the cap its function gives it', () => {
    const { cap } = capOf((client) => (client === 'proxy' ? 3 : 1));
    expect([1, 2, 3, 4].map(() => cap.admit(socket(), 'proxy'))).toEqual([true, true, true, false]);
    expect([1, 2].map(() => cap.admit(socket(), 'client'))).toEqual([true, false]);
  });

  it('should give the place back when a connection closes or is released, and move one to its new client', () => {
    const { cap } = capOf(1);
    const shared = socket();
    cap.admit(shared, 'a');
    cap.requestStarted(shared);
    expect(cap.admit(shared, 'b')).toBe(true);
    expect([cap.open('a'), cap.open('b')]).toEqual([0, 1]);
    expect(cap.admit(socket(), 'b')).toBe(false);
    shared.emit('close');
    expect(cap.open('b')).toBe(0);
    const released = socket();
    expect(cap.admit(released, 'b')).toBe(true);
    cap.release(released);
    expect(cap.open('b')).toBe(0);
    expect(cap.admit(socket(), 'b')).toBe(true);
  });
});
