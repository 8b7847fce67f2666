import { GraphQLError } from 'graphql';

import { MAX_TAG_LENGTH, tagSlug, tagSlugs } from './tag-slug';

function refusal(run: () => unknown): GraphQLError {
  try {
    run();
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
  throw new Error('Expected a refusal');
}

describe('tagSlug', () => {
  it.each([
    ['upper case', 'TypeScript', 'typescript'],
    ['spaces and underscores', '  Machine learning_Basics ', 'machine-learning-basics'],
    ['full-width letters', 'ＮｅｓｔＪＳ', 'nestjs'],
    ['a Kelvin sign', '\u212Aotlin', 'kotlin'],
    ['a decomposed accent', 'Cafe\u0301', 'café'],
    ['letters of other scripts', 'Ελληνικά Κείμενα', 'ελληνικά-κείμενα'],
    ['Devanagari with its vowel signs', 'हिन्दी', 'हिन्दी'],
    ['punctuation and symbols', 'C++ & Rust!', 'c-rust'],
    ['runs of dashes, en dashes and dashes at the ends', '--a — b--', 'a-b'],
    ['digits of other forms', 'Ⅻ ²', 'xii-2'],
  ])('should read %s', (_, tag, slug) => {
    expect(tagSlug(tag)).toBe(slug);
  });

  it('should leave a slug as it is', () => {
    for (const tag of ['Straße', 'İstanbul', 'ＡＢＣ_def', 'a - b']) {
      const once = tagSlug(tag);
      expect(tagSlug(once)).toBe(once);
    }
  });
});

describe('tagSlugs', () => {
  it('should keep each slug once, at its first place', () => {
    expect(tagSlugs(['Rust', 'go', 'RUST', ' rust ', 'Ｇｏ', 'web dev', 'web_dev'])).toEqual([
      'rust',
      'go',
      'web-dev',
    ]);
  });

  it('should take five distinct tags and refuse a sixth with BAD_USER_INPUT', () => {
    expect(tagSlugs(['a', 'b', 'c', 'd', 'e', 'A'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    const error = refusal(() => tagSlugs(['a', 'b', 'c', 'd', 'e', 'f']));
    expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'tags' });
    expect(error.message).toMatch(/at most 5/i);
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['only punctuation', '!!!'],
    ['only dashes and underscores', '-_-'],
    ['only a combining mark', '\u0301'],
  ])('should refuse a tag that is %s, naming it', (_, tag) => {
    const error = refusal(() => tagSlugs(['fine', tag], 'input.tags'));
    expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.tags' });
    expect(error.message).toContain(JSON.stringify(tag));
  });

  it(`should take a slug of ${MAX_TAG_LENGTH} characters and refuse a longer one`, () => {
    const longest = 'é'.repeat(MAX_TAG_LENGTH);
    expect(tagSlugs([longest])).toEqual([longest]);
    const error = refusal(() => tagSlugs([`${longest}e`]));
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain(`longer than ${MAX_TAG_LENGTH}`);
  });

  it('should answer no slugs for no tags', () => {
    expect(tagSlugs([])).toEqual([]);
  });
});
