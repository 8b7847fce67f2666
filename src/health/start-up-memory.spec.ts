import { getHeapSpaceStatistics } from 'node:v8';

import { releaseStartUpMemory } from './start-up-memory';

function youngGeneration(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!
    .physical_space_size;
}

describe('releaseStartUpMemory', () => {
  it('should shrink the young generation that surviving objects grew', async () => {
    // Objects that outlive their first collections, as loaded modules do, grow the young
    // generation; they are garbage by the time the memory is released.
    let kept: object[] = [];
    for (let i = 0; i < 500_000; i++) kept.push({ i, text: `row ${i}` });
    const grown = youngGeneration();
    kept = [];

    expect(await releaseStartUpMemory()).toBe(true);

    expect(kept).toHaveLength(0);
    expect(grown).toBeGreaterThan(8 * 1024 * 1024);
    expect(youngGeneration()).toBeLessThan(grown / 4);
  });
});
