import { TurnSlices } from './turn-slices';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnSlices', () => {
  it('should run a slice a turn, in order, leaving the turns between them to others', async () => {
    const slices = new TurnSlices(2);
    const order: string[] = [];
    const results = [1, 2, 3, 4, 5].map((n) =>
      slices.run(() => {
        order.push(`piece ${n}`);
        return n * 10;
      }),
    );
    // The first two ran at once; the others wait, a slice a turn, with other work between.
    expect(results.slice(0, 2)).toEqual([10, 20]);
    expect(order).toEqual(['piece 1', 'piece 2']);
    setImmediate(() => order.push('another client'));
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(order).toEqual([
      'piece 1',
      'piece 2',
      'piece 3',
      'piece 4',
      'another client',
      'piece 5',
    ]);
  });

  it('should reject the result of a piece that throws, and go on with the others', async () => {
    const slices = new TurnSlices(1);
    slices.run(() => 1);
    const failing = slices.run(() => {
      throw new Error('no snippet');
    });
    const after = slices.run(() => 'still made');
    await expect(failing).rejects.toThrow('no snippet');
    await expect(after).resolves.toBe('still made');
  });

  it('should give a new turn its whole slice', async () => {
    const slices = new TurnSlices(2);
    slices.run(() => 1);
    slices.run(() => 2);
    await nextTurn();
    await nextTurn();
    expect(slices.run(() => 'at once')).toBe('at once');
  });
});
