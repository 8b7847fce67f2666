import { badUserInput } from '../common/errors';

/** The longest query, in characters. */
export const MAX_QUERY_LENGTH = 256;
/** The most words a query may name, in all its terms together. */
export const MAX_QUERY_WORDS = 16;
/**
 * The most terms (words and phrases, found or left out) a query may have: each is one more list
 * of matches that the index walks, and one more term to rank and mark.
 */
export const MAX_QUERY_TERMS = 8;
/**
 * The most prefixes a query may have (the word being typed, and words ending with `*`): a prefix
 * longer than the index's own prefixes gathers every word that starts with it.
 */
export const MAX_QUERY_PREFIXES = 3;
/** The shortest word that is searched as a prefix: one letter would match half the index. */
export const MIN_PREFIX_LENGTH = 2;

/**
 * One term of a query: a word, or a phrase of words that must follow each other, each folded
 * (see {@link foldWord}). `prefix`: the last word matches every word that starts with it (the
 * word being typed).
 */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/** A parsed query: every `include` term must match, and no `exclude` term may. */
export interface SearchQuery {
  include: SearchTerm[];
  exclude: SearchTerm[];
}

/**
 * What a word is made of, as SQLite's unicode61 tokenizer reads it: letters, marks, digits and
 * private-use characters. Everything else (spaces, punctuation, symbols, emoji) separates words.
 */
const WORD = /[\p{L}\p{M}\p{N}\p{Co}]+/gu;
/** Control characters other than tab and line breaks, which are spaces here. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;
const SPACE = /\s/u;

const ASCII_WORD = /^[A-Za-z0-9]*$/;
/** The combining diacritical marks, those that `remove_diacritics 2` takes off Latin letters. */
const DIACRITICS = /[\u0300-\u036f]/g;

/**
 * A word as both databases' indexes compare it: compatibility forms as their plain letters
 * (NFKC: fullwidth `Ｇ` is `G`, `ﬁ` is `fi`), without case, and without the combining
 * diacritics that SQLite's `unicode61 remove_diacritics 2` removes (`é` is `e`); other marks,
 * such as the vowel signs of Devanagari, are letters of the word there, and stay. The index of
 * PostgreSQL folds its documents the same way (see the migration 1765000100000). An ASCII word
 * has no other form than its lower case: most words are, and a page of snippets folds thousands.
 */
export const foldWord = (word: string): string =>
  ASCII_WORD.test(word)
    ? word.toLowerCase()
    : word
        .normalize('NFKC')
        .normalize('NFD')
        .replace(DIACRITICS, '')
        .toLowerCase()
        .normalize('NFC');

interface Token {
  text: string;
  exclude: boolean;
  quoted: boolean;
  /** A bare token that ends the query with a word character, or with `*`. */
  open: boolean;
}

/**
 * Reads a search box's text: words separated by spaces, all of which must match; `"a phrase"`;
 * a leading `-` to leave out a word or phrase; and the last word, while it is being typed (no
 * space after it) or when it ends with `*`, as a prefix. Quotes left open run to the end.
 * Punctuation inside a word splits it into a phrase (`foo-bar` is "foo bar"), as the index
 * reads it. Every word is folded (see {@link foldWord}).
 *
 * BAD_USER_INPUT, saying which, for a query that is too long, has control characters, names more
 * than {@link MAX_QUERY_WORDS} words, has more than {@link MAX_QUERY_TERMS} terms or
 * {@link MAX_QUERY_PREFIXES} prefixes, or has no word to find: a query past a cap is refused,
 * never cut short, so that no one gets the answer of another query than the one they typed.
 */
export function parseSearchQuery(text: string): SearchQuery {
  if ([...text].length > MAX_QUERY_LENGTH) {
    throw badUserInput(`query must be at most ${MAX_QUERY_LENGTH} characters.`, 'query');
  }
  if (CONTROL.test(text)) throw badUserInput('query may not contain control characters.', 'query');
  const query: SearchQuery = { include: [], exclude: [] };
  // Before parsing: a fullwidth quote, minus or space (as typed with an IME) is one of the query.
  for (const token of tokens(text.normalize('NFKC'))) {
    const term = termOf(token);
    if (term) (token.exclude ? query.exclude : query.include).push(term);
  }
  checkCaps(query);
  if (query.include.length === 0) {
    throw badUserInput(
      query.exclude.length > 0
        ? 'query needs a word to find, not only words to leave out.'
        : 'query has no word to search for.',
      'query',
    );
  }
  return query;
}

/** The caps on the words, terms and prefixes of a query, checked in that order. */
function checkCaps({ include, exclude }: SearchQuery): void {
  const terms = [...include, ...exclude];
  if (terms.reduce((words, term) => words + term.words.length, 0) > MAX_QUERY_WORDS) {
    throw badUserInput(`query may name at most ${MAX_QUERY_WORDS} words.`, 'query');
  }
  if (terms.length > MAX_QUERY_TERMS) {
    throw badUserInput(
      `query may have at most ${MAX_QUERY_TERMS} terms (words or "phrases", with or without -).`,
      'query',
    );
  }
  if (include.filter((term) => term.prefix).length > MAX_QUERY_PREFIXES) {
    throw badUserInput(
      `query may have at most ${MAX_QUERY_PREFIXES} prefixes (the word being typed, and words ending with *).`,
      'query',
    );
  }
}

function termOf(token: Token): SearchTerm | null {
  // A word of nothing but diacritics folds to nothing.
  const words = (token.text.match(WORD) ?? []).map(foldWord).filter((word) => word !== '');
  if (words.length === 0) return null;
  const last = words[words.length - 1];
  const prefix =
    token.open && !token.exclude && !token.quoted && [...last].length >= MIN_PREFIX_LENGTH;
  return { words, prefix };
}

function* tokens(text: string): Generator<Token> {
  let at = 0;
  while (at < text.length) {
    if (SPACE.test(text[at])) {
      at++;
      continue;
    }
    const exclude = text[at] === '-' && at + 1 < text.length && !SPACE.test(text[at + 1]);
    if (exclude) at++;
    if (text[at] === '"') {
      const close = text.indexOf('"', at + 1);
      const end = close === -1 ? text.length : close;
      yield { text: text.slice(at + 1, end), exclude, quoted: true, open: false };
      at = end + 1;
      continue;
    }
    let end = at;
    while (end < text.length && !SPACE.test(text[end]) && text[end] !== '"') end++;
    const bare = text.slice(at, end);
    const open =
      bare.endsWith('*') || (end === text.length && /[\p{L}\p{M}\p{N}\p{Co}]$/u.test(bare));
    yield { text: bare, exclude, quoted: false, open };
    at = end;
  }
}

const ftsPhrase = ({ words, prefix }: SearchTerm) => `"${words.join(' ')}"${prefix ? '*' : ''}`;

/**
 * The query as an FTS5 MATCH expression. Every word is inside double quotes, and words hold no
 * quote (see WORD), so no text of the user is read as FTS5 syntax.
 */
export function toFts5Match(query: SearchQuery): string {
  const include = query.include.map(ftsPhrase).join(' AND ');
  const exclude = query.exclude.map((term) => ` NOT ${ftsPhrase(term)}`).join('');
  return `(${include})${exclude}`;
}

/** A lexeme of a tsquery, quoted; words hold neither quote nor backslash, escaped all the same. */
const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

const tsPhrase = ({ words, prefix }: SearchTerm) => {
  const lexemes = words.map(lexeme);
  if (prefix) lexemes[lexemes.length - 1] += ':*';
  return lexemes.length === 1 ? lexemes[0] : `(${lexemes.join(' <-> ')})`;
};

/**
 * The query as the text of a PostgreSQL `to_tsquery`: `&` between terms, `<->` inside phrases,
 * `:*` on a prefix, `!` before an excluded term. Every word is a quoted lexeme.
 */
export function toTsQuery(query: SearchQuery): string {
  const include = query.include.map(tsPhrase);
  const exclude = query.exclude.map((term) => `!${tsPhrase(term)}`);
  return [...include, ...exclude].join(' & ');
}

/**
 * The words and phrases that the query finds, any of them (`|`), as the text of a PostgreSQL
 * `to_tsquery`: what the rank counts (see search.sql.ts).
 */
export function toTsRankQuery(query: SearchQuery): string {
  return query.include.map(tsPhrase).join(' | ');
}

/**
 * The longest prefix that PostgreSQL's index holds as an entry of its own, as FTS5's does (see
 * the migration 1765000700000): the first 2 and 3 letters of every word.
 */
export const MAX_INDEXED_PREFIX_LENGTH = 3;

/** A prefix that PostgreSQL's parser reads as one token of its own: letters and ASCII digits. */
const INDEXED_PREFIX = /^[\p{L}0-9]+$/u;

/** A query for PostgreSQL's two indexes: the words, and the prefixes of the words. */
export interface TsIndexQuery {
  /** The query without its short prefixes, for the index of words. */
  words: string;
  /** The short prefixes, each a whole entry of the index of prefixes. */
  prefixes: string;
}

/**
 * The query as PostgreSQL finds it fastest when its prefixes are short: GIN would gather every
 * post that has a word starting with a prefix of 2 or 3 letters, but finds the prefix as one
 * entry of the index of prefixes. Only what the indexes find must then match the whole query
 * ({@link toTsQuery}). `null` when no prefix is that short, or when the query names nothing else
 * (one prefix alone is found fastest by walking the posts from the newest).
 */
export function toTsIndexQuery(query: SearchQuery): TsIndexQuery | null {
  const words: SearchTerm[] = [];
  const prefixes: string[] = [];
  for (const term of query.include) {
    const last = term.words[term.words.length - 1];
    const short =
      term.prefix && [...last].length <= MAX_INDEXED_PREFIX_LENGTH && INDEXED_PREFIX.test(last);
    if (!short) {
      words.push(term);
      continue;
    }
    prefixes.push(lexeme(last));
    if (term.words.length > 1) words.push({ words: term.words.slice(0, -1), prefix: false });
  }
  if (prefixes.length === 0 || words.length === 0) return null;
  return {
    words: toTsQuery({ include: words, exclude: query.exclude }),
    prefixes: prefixes.join(' & '),
  };
}
