import { excerptOf, readingTimeMinutes, wordCountOf } from './words';

describe('excerptOf', () => {
  it('should keep a text that fits, its whitespace collapsed', () => {
    expect(excerptOf('  A short\n\ntext.  ')).toBe('A short text.');
    expect(excerptOf('x'.repeat(200))).toBe('x'.repeat(200));
  });

  it('should cut at the last word boundary before the limit, and add "…"', () => {
    expect(excerptOf('alpha beta gamma delta', 12)).toBe('alpha beta…');
    expect(excerptOf('alpha beta gamma delta', 17)).toBe('alpha beta gamma…');
    expect(excerptOf('alpha beta gamma delta', 16)).toBe('alpha beta…');
  });

  it('should drop trailing punctuation before the "…"', () => {
    expect(excerptOf('one, two; three — four', 11)).toBe('one, two…');
    expect(excerptOf('one — two three', 9)).toBe('one…');
  });

  it('should cut at 200 characters by default, "…" included', () => {
    const text = 'word '.repeat(100);
    const excerpt = excerptOf(text);
    expect(excerpt).toBe(`${'word '.repeat(39)}word…`);
    expect(excerpt.length).toBeLessThanOrEqual(200);
  });

  it('should cut a first word longer than the limit where the limit falls', () => {
    expect(excerptOf('abcdefghijklmnop', 6)).toBe('abcde…');
  });

  it('should count code points, and never split a surrogate pair', () => {
    expect(excerptOf('😀😀😀😀😀😀', 4)).toBe('😀😀😀…');
    expect(excerptOf('😀😀😀😀', 4)).toBe('😀😀😀😀');
  });

  it('should cut between Chinese or Japanese characters', () => {
    expect(excerptOf('日本語の文章です。とても長い', 6)).toBe('日本語の文…');
  });
});

describe('readingTimeMinutes', () => {
  it.each([
    [0, 1],
    [1, 1],
    [230, 1],
    [231, 2],
    [2300, 10],
    [Number.NaN, 1],
    [-5, 1],
  ])('should read %p words in %p minutes', (words, minutes) => {
    expect(readingTimeMinutes(words)).toBe(minutes);
  });
});

describe('wordCountOf', () => {
  it('should count runs between whitespace that hold a letter or digit', () => {
    expect(wordCountOf('state-of-the-art, e.g. 3.14 — done')).toBe(4);
  });

  it('should count each Chinese or Japanese character, but not their punctuation', () => {
    expect(wordCountOf('漢字とカタカナ。')).toBe(7);
    expect(wordCountOf('コンピューター')).toBe(7);
  });
});
