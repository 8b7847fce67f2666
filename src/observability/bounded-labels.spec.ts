import { BoundedLabels } from './bounded-labels';

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
