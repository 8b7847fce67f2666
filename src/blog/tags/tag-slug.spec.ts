import { GraphQLError } from 'graphql';

import { MAX_STACKED_MARKS, MAX_TAG_LENGTH, tagSlug, tagSlugs } from './tag-slug';

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

describe('tagSlug and invisible or stacked characters', () => {
  const FILLERS = {
    'U+115F (Hangul choseong filler)': '\u115F',
    'U+1160 (Hangul jungseong filler)': '\u1160',
    'U+3164 (Hangul filler)': '\u3164',
    'U+FFA0 (half-width Hangul filler)': '\uFFA0',
    'U+200B (zero-width space)': '\u200B',
    'U+FEFF (zero-width no-break space)': '\uFEFF',
    'U+034F (combining grapheme joiner)': '\u034F',
    'U+FE0F (variation selector)': '\uFE0F',
  };

  it.each(Object.entries(FILLERS))('should drop %s inside and around a tag', (_, filler) => {
    for (const tag of [
      `rust${filler}`,
      `${filler}rust`,
      `ru${filler}st`,
      `${filler}r${filler}u${filler}s${filler}t${filler}`,
      `${filler} rust ${filler}`,
    ]) {
      expect(tagSlug(tag)).toBe('rust');
    }
    expect(tagSlug(`web${filler}-${filler}dev`)).toBe('web-dev');
    expect(tagSlug(filler.repeat(3))).toBe('');
  });

  it('should let no filler keep an accent from its letter', () => {
    expect(tagSlug('Cafe\u034F\u0301')).toBe('café');
    expect(tagSlug('Cafe\u3164\u0301')).toBe('café');
  });

  it.each([
    ['one mark', 'a\u0301', 'á'],
    ['two marks', 'a\u0301\u0323', 'a\u0323\u0301'],
    ['three marks, cut to two', 'a\u0301\u0302\u0303', 'a\u0301\u0302'],
    ['63 marks, cut to two', `a${'\u0301'.repeat(63)}`, 'á\u0301'],
    ['a composed letter and two more marks', '\u00E9\u0301\u0301', 'é\u0301'],
    ['marks that punctuation had kept apart', 'a!\u0301!\u0301!\u0301', 'á\u0301'],
  ])(`should leave at most ${MAX_STACKED_MARKS} marks on a letter: %s`, (_, tag, slug) => {
    expect(tagSlug(tag)).toBe(slug.normalize('NFC'));
  });

  it('should drop a lone surrogate, which tagSlugs refuses', () => {
    expect(tagSlug('ru\uD800st')).toBe('rust');
  });

  // A pool of the characters the rules treat apart, drawn at random into tags.
  const POOL = [
    ...'aZé9-_ !.',
    ...Object.values(FILLERS),
    '\u0301',
    '\u0323',
    '\u0345',
    '\u05B8',
    '\u093C',
    '\u093F',
    '\u0902',
    'ज',
    'ω',
    'Σ',
    'İ',
    '\u1100',
    '\u1161',
    '\u11A8',
    '한',
    'Ａ',
    'ﬁ',
    '\u2014',
    '\u200D',
    '\uD800',
    '\uDC00',
  ];

  it('should read its own slugs as they are, and never leave a filler or a pile of marks', () => {
    let seed = 62;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5_000; i += 1) {
      const length = 1 + Math.floor(random() * 12);
      const tag = Array.from({ length }, () => POOL[Math.floor(random() * POOL.length)]).join('');
      const slug = tagSlug(tag);
      expect(tagSlug(slug)).toBe(slug);
      expect(slug).not.toMatch(/\p{Default_Ignorable_Code_Point}|\p{Cs}/u);
      for (const [run] of slug.normalize('NFD').matchAll(/\p{M}+/gu)) {
        expect(run.match(/[\p{Mn}\p{Me}]/gu)?.length ?? 0).toBeLessThanOrEqual(MAX_STACKED_MARKS);
      }
      let taken: string[] | undefined;
      try {
        taken = tagSlugs([tag]);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
      }
      if (taken) expect(taken).toEqual([slug]);
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

  it.each([
    ['U+115F', '\u115F'],
    ['U+1160', '\u1160'],
    ['U+3164', '\u3164'],
    ['U+200B', '\u200B'],
    ['U+FEFF', '\uFEFF'],
    ['Hangul fillers and spaces', '\u3164 \u115F\u1160 \uFFA0'],
    ['a filler and punctuation', '#\u3164!'],
  ])('should refuse a tag of nothing but %s as an empty one', (_, tag) => {
    const error = refusal(() => tagSlugs([tag], 'input.tags'));
    expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.tags' });
    expect(error.message).toMatch(/no letter or digit/);
  });

  it('should read a tag with fillers as the tag that it looks like', () => {
    expect(
      tagSlugs(['rust', 'rust\u3164', '\u115Frust', 'ru\u200Bst', '\uFEFFrust', 'go\u1160']),
    ).toEqual(['rust', 'go']);
  });

  it(`should take ${MAX_STACKED_MARKS} combining marks on a letter`, () => {
    expect(tagSlugs(['a\u0301\u0323', '\u00E9\u0301', 'tiếng việt', 'ज़िंदगी'])).toEqual([
      'ạ́',
      'é\u0301',
      'tiếng-việt',
      'ज़िंदगी',
    ]);
  });

  it.each([
    ['three marks', 'a\u0301\u0302\u0303'],
    ['three of the same mark', 'a\u0301\u0301\u0301'],
    ['63 marks', `zalgo${'\u0301'.repeat(63)}`],
    ['a composed letter and two more', 'caf\u00E9\u0301\u0301'],
    ['marks that a filler keeps apart', 'a\u0301\u3164\u0301\u200B\u0301'],
    ['enclosing marks', 'a\u20DD\u20DD\u20DD'],
  ])(`should refuse more than ${MAX_STACKED_MARKS} combining marks on a letter: %s`, (_, tag) => {
    const error = refusal(() => tagSlugs(['fine', tag], 'input.tags'));
    expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.tags' });
    expect(error.message).toMatch(/more than 2 combining marks on one letter/);
  });

  it.each([
    ['a lone high surrogate', 'rust\uD800'],
    ['a lone low surrogate', '\uDC00rust'],
    ['a low surrogate before a high one', 'ru\uDC00\uD800st'],
    ['nothing but a lone surrogate', '\uD83D'],
  ])('should refuse %s, as every text rule does', (_, tag) => {
    const error = refusal(() => tagSlugs([tag], 'slug'));
    expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'slug' });
    expect(error.message).toMatch(/lone surrogates/);
  });

  it('should take a pair of surrogates, a character beyond the first plane', () => {
    expect(tagSlugs(['𝐑ust', '𠀀𠀁'])).toEqual(['rust', '𠀀𠀁']);
  });

  it.each([
    ['Cyrillic', 'Русский Язык', 'русский-язык'],
    ['Greek', 'Ελληνικά', 'ελληνικά'],
    ['Hebrew', 'עברית', 'עברית'],
    ['Arabic with its vowel marks', 'مُحَمَّد', 'مُحَمَّد'],
    ['Devanagari', 'हिन्दी भाषा', 'हिन्दी-भाषा'],
    ['Bengali', 'বাংলা', 'বাংলা'],
    ['Tamil', 'தமிழ்', 'தமிழ்'],
    ['Thai with a vowel and a tone mark', 'ที่นี่', 'ที่นี่'],
    ['Korean', '한국어', '한국어'],
    ['Japanese', '日本語 カタカナ', '日本語-カタカナ'],
    ['Chinese', '中文', '中文'],
    ['Vietnamese', 'Tiếng Việt', 'tiếng-việt'],
    ['Latin with accents', 'Ça Déçoit', 'ça-déçoit'],
  ])('should take the letters of %s as before', (_, tag, slug) => {
    expect(tagSlugs([tag])).toEqual([slug]);
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
