import {
  FALLBACK_SLUG,
  lookupSlug,
  MAX_SLUG_LENGTH,
  requestedSlug,
  slugCandidates,
  slugOf,
  slugOfTitle,
} from './post-slug';

describe('post slugs', () => {
  it.each([
    ['Hello, GraphQL World!', 'hello-graphql-world'],
    ['  Spaces   and\ttabs  ', 'spaces-and-tabs'],
    ['Crème brûlée à la Straße', 'creme-brulee-a-la-strasse'],
    ['Ærø og Łódź', 'aero-og-lodz'],
    ['Tiếng Việt có dấu', 'tieng-viet-co-dau'],
    ['Привет, мир', 'привет-мир'],
    ['日本語のタイトル', '日本語のタイトル'],
    ['हिन्दी शीर्षक', 'हिन्दी-शीर्षक'],
    ['ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ', 'fullwidth-text'],
    ['snake_case and kebab-case', 'snake-case-and-kebab-case'],
    ['zero\u200bwidth', 'zerowidth'],
    ['C++ & C#: 2 languages', 'c-c-2-languages'],
  ])('should make %j into %j', (title, slug) => {
    expect(slugOf(title)).toBe(slug);
  });

  it('should fall back to "post" for a title with no letter or digit', () => {
    expect(slugOf('!!! ???')).toBe('');
    expect(slugOfTitle('!!! ???')).toBe(FALLBACK_SLUG);
  });

  it('should cut at 80 characters, at a dash in the second half', () => {
    const title = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const slug = slugOf(title);
    expect([...slug].length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug.endsWith('-')).toBe(false);
    expect(`${title.replaceAll(' ', '-')}-`.startsWith(`${slug}-`)).toBe(true);
    expect([...slugOf('x'.repeat(200))]).toHaveLength(MAX_SLUG_LENGTH);
    expect([...slugOf('日'.repeat(200))]).toHaveLength(MAX_SLUG_LENGTH);
  });

  it('should number the candidates of a clash, keeping each within 80 characters', () => {
    expect(slugCandidates('hello', 0, 3)).toEqual(['hello', 'hello-2', 'hello-3']);
    expect(slugCandidates('hello', 1, 2)).toEqual(['hello-3', 'hello-4']);
    const long = 'a'.repeat(MAX_SLUG_LENGTH);
    for (const candidate of slugCandidates(long, 0, 12)) {
      expect(candidate.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    }
    expect(slugCandidates(long, 0, 12)[11]).toBe(`${'a'.repeat(MAX_SLUG_LENGTH - 3)}-12`);
  });

  it('should read an asked-for slug as a title, refusing one that leaves nothing or is too long', () => {
    expect(requestedSlug('My Own Slug', 'input.slug')).toBe('my-own-slug');
    expect(() => requestedSlug('---', 'input.slug')).toThrow(/letter or digit/);
    expect(() => requestedSlug('x'.repeat(81), 'input.slug')).toThrow(/80 characters/);
    expect(() => requestedSlug('a\ud800b', 'input.slug')).toThrow(/surrogates/);
  });

  it('should look a slug up in lower case, and never a hostile one', () => {
    expect(lookupSlug('Hello-World')).toBe('hello-world');
    expect(lookupSlug('a\udc00')).toBe('');
    expect(lookupSlug('x'.repeat(1000))).toBe('');
  });
});
