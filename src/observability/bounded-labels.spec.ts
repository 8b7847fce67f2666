import { BoundedLabels, OperationNameLabels } from './bounded-labels';

describe('BoundedLabels', () => {
  it('should give the first values labels of their own and the rest the overflow label', () => {
    const labels = new BoundedLabels(2);
    expect(labels.label('a')).toBe('a');
    expect(labels.label('b')).toBe('b');
    expect(labels.label('c')).toBe('other');
    expect(labels.label('a')).toBe('a');
  });

  it('should admit a new value only when asked to, and no overlong one', () => {
    const labels = new BoundedLabels(5, 'other', 10);
    expect(labels.label('unchecked', false)).toBe('other');
    expect(labels.label('checked')).toBe('checked');
    expect(labels.label('checked', false)).toBe('checked');
    expect(labels.label('x'.repeat(11))).toBe('other');
  });
});

describe('OperationNameLabels', () => {
  const anonymous = { valid: true, signedIn: false };
  const signedIn = { valid: true, signedIn: true };

  function labels(max: number, pinned: string[] = []) {
    let now = 0;
    const evicted: string[] = [];
    const names = new OperationNameLabels(max, {
      pinned,
      halfLifeMs: 1_000,
      now: () => now,
      evicted: (name) => evicted.push(name),
    });
    return {
      names,
      evicted,
      tick: (ms = 1) => (now += ms),
    };
  }

  it('should keep a name in steady use when an anonymous client sends 205 made-up ones', () => {
    const { names, evicted, tick } = labels(200);
    for (let i = 0; i < 3; i += 1) expect(names.label('Feed', anonymous)).toBe('Feed');
    for (let i = 0; i < 205; i += 1) {
      tick();
      names.label(`Junk${i}`, anonymous);
    }
    tick();
    expect(names.label('Feed', anonymous)).toBe('Feed');
    // A real name first seen after the flood takes the place of a made-up one.
    expect(names.label('PostPage', anonymous)).toBe('PostPage');
    expect(evicted).toHaveLength(7);
    expect(evicted.every((name) => name.startsWith('Junk'))).toBe(true);
  });

  it('should not let names that anonymous clients repeat push out those of signed-in users', () => {
    const { names, tick } = labels(3);
    names.label('Mine', signedIn);
    for (let round = 0; round < 10; round += 1) {
      for (const name of ['A', 'B', 'C', 'D']) {
        tick();
        names.label(name, anonymous);
      }
    }
    expect(names.label('Mine', signedIn)).toBe('Mine');
    // A signed-in user's new name outranks names only anonymous clients send.
    expect(names.label('Theirs', signedIn)).toBe('Theirs');
    expect(names.label('E', anonymous)).toBe('other');
  });

  it('should keep a repeated name against a newcomer until its uses have faded', () => {
    const { names, tick } = labels(1);
    for (let i = 0; i < 4; i += 1) names.label('Busy', anonymous);
    tick();
    expect(names.label('New', anonymous)).toBe('other');
    tick(3_000); // three half-lives: 4 uses weigh one half
    expect(names.label('New', anonymous)).toBe('New');
    expect(names.label('Busy', anonymous)).toBe('other');
  });

  it('should always label pinned names, and never invalid or overlong ones', () => {
    const { names } = labels(1, ['Trusted']);
    names.label('Held', signedIn);
    expect(names.label('Trusted', anonymous)).toBe('Trusted');
    expect(names.label('Trusted', { valid: false, signedIn: false })).toBe('Trusted');
    const { names: empty } = labels(5);
    expect(empty.label('Broken', { valid: false, signedIn: true })).toBe('other');
    expect(empty.label('x'.repeat(101), signedIn)).toBe('other');
  });
});
