import { GraphQLError } from 'graphql';

import {
  parseSearchQuery,
  SearchQuery,
  toFts5Match,
  toTsIndexQuery,
  toTsQuery,
} from './search-query';

const word = (text: string, prefix = false) => ({ words: [text], prefix });
const phrase = (words: string[], prefix = false) => ({ words, prefix });

function refusal(text: string): string {
  try {
    parseSearchQuery(text);
  } catch (error) {
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'query' });
    return (error as GraphQLError).message;
  }
  throw new Error(`${JSON.stringify(text)} was not refused`);
}

describe('parseSearchQuery', () => {
  it.each<[string, SearchQuery]>([
    ['graphql', { include: [word('graphql', true)], exclude: [] }],
    ['graphql ', { include: [word('graphql')], exclude: [] }],
    ['graphql*  ', { include: [word('graphql', true)], exclude: [] }],
    ['nest graphql', { include: [word('nest'), word('graphql', true)], exclude: [] }],
    [
      '"query planner" cost',
      { include: [phrase(['query', 'planner']), word('cost', true)], exclude: [] },
    ],
    [
      'cost "query planner"',
      { include: [word('cost'), phrase(['query', 'planner'])], exclude: [] },
    ],
    ['rust -java', { include: [word('rust')], exclude: [word('java')] }],
    [
      'rust -"java script" go',
      { include: [word('rust'), word('go', true)], exclude: [phrase(['java', 'script'])] },
    ],
    ['a - b', { include: [word('a'), word('b')], exclude: [] }],
    ['--rust go', { include: [word('go', true)], exclude: [word('rust')] }],
    ['"unclosed phrase', { include: [phrase(['unclosed', 'phrase'])], exclude: [] }],
    ['"open', { include: [word('open')], exclude: [] }],
    ['foo-bar', { include: [phrase(['foo', 'bar'], true)], exclude: [] }],
    ['e.g. x', { include: [phrase(['e', 'g']), word('x')], exclude: [] }],
    ['x', { include: [word('x')], exclude: [] }],
    ['AND OR NOT', { include: [word('and'), word('or'), word('not', true)], exclude: [] }],
    ['NEAR(a b)', { include: [phrase(['near', 'a']), word('b')], exclude: [] }],
    [
      "'; DROP TABLE posts; --",
      { include: [word('drop'), word('table'), word('posts')], exclude: [] },
    ],
    ['title:secret', { include: [phrase(['title', 'secret'], true)], exclude: [] }],
    ['café 日本語', { include: [word('cafe'), word('日本語', true)], exclude: [] }],
    ['😀 smile 🎉', { include: [word('smile')], exclude: [] }],
    ['tab\tand\nlines', { include: [word('tab'), word('and'), word('lines', true)], exclude: [] }],
    ['x"y"zz', { include: [word('x'), word('y'), word('zz', true)], exclude: [] }],
  ])('should read %j', (text, expected) => {
    expect(parseSearchQuery(text)).toEqual(expected);
  });

  it.each([
    ['', /no word/],
    ['   ', /no word/],
    ['-', /no word/],
    ['""', /no word/],
    ['"', /no word/],
    ['*', /no word/],
    ['* ^ : ( ) + ~', /no word/],
    ['😀🎉', /no word/],
    ['-java', /not only words to leave out/],
    ['-java -"c sharp"', /not only words to leave out/],
    ['x'.repeat(257), /at most 256 characters/],
    ['a '.repeat(5_000), /at most 256 characters/],
    [Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), /at most 16 words/],
    [Array.from({ length: 9 }, (_, i) => `w${i}`).join(' '), /at most 8 terms/],
    ['a b c d e f g h -"i j"', /at most 8 terms/],
    ['ab* cd* ef* gh', /at most 3 prefixes/],
    ['ab* cd* ef* gh* ij ', /at most 3 prefixes/],
    ['bell\u0007', /control characters/],
    ['nul\u0000', /control characters/],
    ['esc\u001b[31m', /control characters/],
  ])('should refuse %j', (text, message) => {
    expect(refusal(text)).toMatch(message);
  });

  it('should take 8 terms, 16 words in phrases, and 3 prefixes', () => {
    const eight = Array.from({ length: 8 }, (_, i) => `w${i}`).join(' ');
    expect(parseSearchQuery(eight).include).toHaveLength(8);
    const phrases = `"${Array.from({ length: 8 }, (_, i) => `a${i}`).join(' ')}" -"${Array.from(
      { length: 8 },
      (_, i) => `b${i}`,
    ).join(' ')}"`;
    expect(parseSearchQuery(phrases)).toEqual({
      include: [phrase(Array.from({ length: 8 }, (_, i) => `a${i}`))],
      exclude: [phrase(Array.from({ length: 8 }, (_, i) => `b${i}`))],
    });
    expect(parseSearchQuery('ab* cd* ef').include.filter((term) => term.prefix)).toHaveLength(3);
    // Left out words and one letter typed are no prefixes.
    expect(parseSearchQuery('ab* cd* ef* -gh* i').include).toHaveLength(4);
  });

  it('should count 256 characters by code point, so 256 emoji-free letters pass', () => {
    expect(parseSearchQuery('é'.repeat(256)).include).toHaveLength(1);
    expect(refusal('é'.repeat(257))).toMatch(/at most 256/);
  });

  it.each<[string, SearchQuery]>([
    ['Wörld CAFÉ ', { include: [word('world'), word('cafe')], exclude: [] }],
    ['cafe\u0301 ', { include: [word('cafe')], exclude: [] }],
    ['Ñandú -Ærø', { include: [word('nandu')], exclude: [word('ærø')] }],
    ['ＧｒａｐｈＱＬ', { include: [word('graphql', true)], exclude: [] }],
    ['ﬁne ①', { include: [word('fine'), word('1')], exclude: [] }],
    [
      '\uff02ｎｅｓｔ\u3000ｊｓ\uff02\u3000－ｊａｖａ',
      {
        include: [phrase(['nest', 'js'])],
        exclude: [word('java')],
      },
    ],
    ['हिन्दी 한국어 ', { include: [word('हिन्दी'), word('한국어')], exclude: [] }],
    ['\u0301 x', { include: [word('x')], exclude: [] }],
  ])('should fold %j as the indexes fold their text', (text, expected) => {
    expect(parseSearchQuery(text)).toEqual(expected);
  });

  it('should send the folded words to both databases', () => {
    const query = parseSearchQuery('"Crème Brûlée" -Ｗörld Ｃａｆé');
    expect(toFts5Match(query)).toBe('("creme brulee" AND "cafe"*) NOT "world"');
    expect(toTsQuery(query)).toBe("('creme' <-> 'brulee') & 'cafe':* & !'world'");
  });

  it('should refuse a query of nothing but diacritics as one with no word', () => {
    expect(refusal('\u0301\u0308 ')).toMatch(/no word/);
  });

  it('should not take a one-letter word being typed as a prefix', () => {
    expect(parseSearchQuery('rust a').include).toEqual([word('rust'), word('a')]);
  });
});

describe('the database queries', () => {
  const query = parseSearchQuery('nest "query planner" -java -"c sharp" gra');

  it('should quote every word for FTS5, with * on the prefix and NOT for the exclusions', () => {
    expect(toFts5Match(query)).toBe(
      '("nest" AND "query planner" AND "gra"*) NOT "java" NOT "c sharp"',
    );
  });

  it('should quote every lexeme for to_tsquery, with <-> in phrases and :* on the prefix', () => {
    expect(toTsQuery(query)).toBe(
      "'nest' & ('query' <-> 'planner') & 'gra':* & !'java' & !('c' <-> 'sharp')",
    );
  });

  it('should leave no quote, operator or column filter of the text to the database', () => {
    const hostile = parseSearchQuery(`a" OR title:* NOT "b' || '\\ c NEAR(d, 1)`);
    expect(toFts5Match(hostile)).toBe(
      '("a" AND "or title not" AND "b" AND "c" AND "near d" AND "1")',
    );
    expect(toTsQuery(hostile)).toBe(
      "'a' & ('or' <-> 'title' <-> 'not') & 'b' & 'c' & ('near' <-> 'd') & '1'",
    );
  });
});

describe("PostgreSQL's indexes of words and prefixes", () => {
  const split = (text: string) => toTsIndexQuery(parseSearchQuery(text));

  it('should find a prefix of 2 or 3 letters as an entry of its own, and the rest as words', () => {
    expect(split('nest gra')).toEqual({ words: "'nest'", prefixes: "'gra'" });
    expect(split('nest gr')).toEqual({ words: "'nest'", prefixes: "'gr'" });
    expect(split('nest -java gra')).toEqual({ words: "'nest' & !'java'", prefixes: "'gra'" });
    expect(split('ab* nest cd')).toEqual({ words: "'nest'", prefixes: "'ab' & 'cd'" });
  });

  it('should keep the words before a prefix in its phrase', () => {
    expect(split('nest query-pl')).toEqual({ words: "'nest' & 'query'", prefixes: "'pl'" });
    expect(split('graphql-ne')).toEqual({ words: "'graphql'", prefixes: "'ne'" });
  });

  it('should keep a longer prefix, and a short one of other characters, for the index of words', () => {
    expect(split('nest grap')).toBeNull();
    expect(split('nest हि')).toBeNull();
    expect(split('nest ét')).toEqual({ words: "'nest'", prefixes: "'et'" });
    expect(split('nest 東京')).toEqual({ words: "'nest'", prefixes: "'東京'" });
    expect(split('nest 20')).toEqual({ words: "'nest'", prefixes: "'20'" });
  });

  it('should leave a query of prefixes alone, or of no prefix, as it is', () => {
    expect(split('gra')).toBeNull();
    expect(split('-java gra')).toBeNull();
    expect(split('ab* cd')).toBeNull();
    expect(split('nest gra ')).toBeNull();
    expect(split('"nest gra"')).toBeNull();
  });
});
