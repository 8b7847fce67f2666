import { foldWord, parseSearchQuery } from './search-query';
import {
  escapeHtml,
  markedWords,
  snippetOfByFullScan,
  MAX_SNIPPET_LENGTH,
  openingOf,
  SNIPPET_CHARACTERS,
  SNIPPET_WORDS,
  snippetOf,
  snippetOfPost,
} from './snippet';
import { SEARCHED_CONTENT_LENGTH } from '../posts/post-search-text';

const words = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `w${from + i}`).join(' ');

describe('snippetOf', () => {
  it('should mark the matched words, whatever their case and accents', () => {
    expect(snippetOf('Le Café est ouvert', parseSearchQuery('cafe '))).toBe(
      'Le <mark>Café</mark> est ouvert',
    );
  });

  it('should match a plain ASCII word with the same word written with accents, both ways', () => {
    expect(snippetOf('Fresh CAFE at the École', parseSearchQuery('Café ECOLE '))).toBe(
      'Fresh <mark>CAFE</mark> at the <mark>École</mark>',
    );
  });

  it('should mark the accented, decomposed or fullwidth word as the text writes it', () => {
    expect(snippetOf('Hello Wörld and cafe\u0301', parseSearchQuery('world café '))).toBe(
      'Hello <mark>Wörld</mark> and <mark>cafe\u0301</mark>',
    );
    expect(snippetOf('Learn ＧｒａｐｈＱＬ now', parseSearchQuery('graphql '))).toBe(
      'Learn <mark>ＧｒａｐｈＱＬ</mark> now',
    );
  });

  it('should escape the text so that no HTML of a post gets through', () => {
    const content = 'Fish & chips <script>alert(1)</script> "quoted" \'single\' <b>bold</b>';
    expect(snippetOf(content, parseSearchQuery('alert '))).toBe(
      'Fish &amp; chips &lt;script&gt;<mark>alert</mark>(1)&lt;/script&gt; &quot;quoted&quot; ' +
        '&#39;single&#39; &lt;b&gt;bold&lt;/b&gt;',
    );
  });

  it('should show about 24 words around the matches, with … where the text goes on', () => {
    const text = `${words(1, 100)} needle ${words(101, 200)}.`;
    const snippet = snippetOf(text, parseSearchQuery('needle ')) as string;
    expect(snippet.startsWith('…w97 w98 w99 w100 <mark>needle</mark> w101')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.replace(/<\/?mark>|…/g, '').split(' ')).toHaveLength(SNIPPET_WORDS);
  });

  it('should choose the window with the most matches', () => {
    const text = `needle ${words(1, 60)} needle w61 needle w62 needle ${words(63, 120)}`;
    const snippet = snippetOf(text, parseSearchQuery('needle ')) as string;
    expect(snippet.match(/<mark>/g)).toHaveLength(3);
  });

  it('should mark a phrase only where its words follow each other, and a prefix', () => {
    const text = 'query then planner, a query planner and the planning';
    expect(snippetOf(text, parseSearchQuery('"query planner" plan'))).toBe(
      'query then <mark>planner</mark>, a <mark>query</mark> <mark>planner</mark> and the <mark>planning</mark>',
    );
  });

  it('should keep the end of a short text and lay line breaks out as spaces', () => {
    expect(snippetOf('  First line.\n\nSecond <line>.  ', parseSearchQuery('second '))).toBe(
      'First line. <mark>Second</mark> &lt;line&gt;.',
    );
  });

  it('should answer null when no word of the text matches', () => {
    expect(snippetOf('nothing here', parseSearchQuery('needle '))).toBeNull();
  });
});

describe('openingOf', () => {
  it('should show the first words, escaped', () => {
    expect(openingOf(`& ${words(1, 30)}`)).toBe(`&amp; ${words(1, SNIPPET_WORDS)}…`);
  });

  it('should cut a text without words, and escape no more of it than it shows', () => {
    expect(openingOf('!'.repeat(50_000))).toBe(`${'!'.repeat(SNIPPET_CHARACTERS)}…`);
    expect(openingOf('&'.repeat(50_000))).toBe(`${'&amp;'.repeat(SNIPPET_CHARACTERS)}…`);
    expect(openingOf(' <> ')).toBe('&lt;&gt;');
  });
});

/** What a snippet shows as text: without its marks and ellipses, unescaped. */
const visible = (html: string) =>
  html.replace(/<\/?mark>|…/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => escapes[entity]);
const escapes: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

describe('the bounds of a snippet', () => {
  it('should cut a long word where the characters run out, with …', () => {
    const long = `needle${'e'.repeat(10_000)}`;
    expect(snippetOf(`${long} after`, parseSearchQuery('need'))).toBe(
      `<mark>${long.slice(0, SNIPPET_CHARACTERS)}</mark>…`,
    );
    expect(snippetOf(`before ${'x'.repeat(10_000)} after`, parseSearchQuery('before '))).toBe(
      `<mark>before</mark> ${'x'.repeat(SNIPPET_CHARACTERS - 7)}…`,
    );
  });

  it('should show the match after lead words too long to show it', () => {
    const text = (lead: number) => `${'x'.repeat(10_000)} ${'y'.repeat(lead)} needle and more`;
    expect(snippetOf(text(200), parseSearchQuery('needle '))).toBe('…<mark>needle</mark> and more');
    expect(snippetOf(text(100), parseSearchQuery('needle '))).toBe(
      `…${'y'.repeat(100)} <mark>needle</mark> and more`,
    );
  });

  it('should leave out a long opening before the first word when it would hide the match', () => {
    const text = `${'😀 '.repeat(2_000)}shearwater flies`;
    expect(snippetOf(text, parseSearchQuery('shearwater '))).toBe('…<mark>shearwater</mark> flies');
    expect(snippetOf(`  ${'.'.repeat(100)} a shearwater`, parseSearchQuery('shearwater '))).toBe(
      `${'.'.repeat(100)} a <mark>shearwater</mark>`,
    );
  });

  it('should not cut a character beyond the BMP in two', () => {
    const text = `needle ${'a'.repeat(SNIPPET_CHARACTERS - 8)}😀😀 end`;
    const snippet = snippetOf(text, parseSearchQuery('needle ')) as string;
    expect(snippet).toBe(`<mark>needle</mark> ${'a'.repeat(SNIPPET_CHARACTERS - 8)}…`);
  });

  it('should stay within its characters and its length in HTML, whatever the text', () => {
    const pieces = [
      'a',
      'A',
      'aa',
      '"',
      '&',
      "'",
      '<',
      ' ',
      '  ',
      '\n',
      'é',
      '😀',
      'x'.repeat(400),
    ];
    const queries = ['a ', 'aa ', 'a', '"a a"', 'x'].map((q) => parseSearchQuery(q));
    let seed = 3;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let longest = 0;
    for (let t = 0; t < 300; t++) {
      let text = '';
      const length = 1 + next(2_000);
      for (let i = 0; i < length; i++) text += pieces[next(pieces.length)];
      for (const query of queries) {
        for (const snippet of [snippetOf(text, query), openingOf(text)]) {
          if (snippet === null) continue;
          expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
          expect(visible(snippet).length).toBeLessThanOrEqual(SNIPPET_CHARACTERS);
          longest = Math.max(longest, snippet.length);
        }
      }
    }
    // The worst of them: 24 marked one-letter words between quotes.
    const worst = snippetOf('"a" '.repeat(5_000), parseSearchQuery('a ')) as string;
    expect(worst.length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
    expect(longest).toBeGreaterThan(SNIPPET_CHARACTERS);
  });
});

describe('snippetOfPost', () => {
  const post = (title: string, content: string) => ({ title, content });

  it('should show the content where it matches, else the title, else the opening', () => {
    expect(snippetOfPost(post('Title', 'A needle here.'), parseSearchQuery('needle '))).toBe(
      'A <mark>needle</mark> here.',
    );
    expect(snippetOfPost(post('A needle', 'Nothing.'), parseSearchQuery('needle '))).toBe(
      'A <mark>needle</mark>',
    );
    expect(snippetOfPost(post('Title', 'Nothing & more.'), parseSearchQuery('needle '))).toBe(
      'Nothing &amp; more.',
    );
  });

  it('should read only the part of the content that the index reads', () => {
    const filler = 'word '.repeat(SEARCHED_CONTENT_LENGTH / 5);
    const content = `${filler}needle`;
    expect(snippetOfPost(post('Title', content), parseSearchQuery('needle '))).toBe(
      `${'word '.repeat(SNIPPET_WORDS - 1)}word…`,
    );
    const within = `${filler.slice(7)}needle`;
    expect(snippetOfPost(post('Title', within), parseSearchQuery('needle '))).toMatch(
      /<mark>needle<\/mark>$/,
    );
  });
});

describe('escapeHtml', () => {
  it('should escape the five characters that matter in HTML', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

/**
 * The plain reading that {@link snippetOf} speeds up: every word copied and folded on its own.
 * The fast path (ASCII text lowered once and compared in place) must mark the same words.
 */
type Query = ReturnType<typeof parseSearchQuery>;

function plainMatches(text: string, query: Query): number[] {
  const folded = [...text.matchAll(/[\p{L}\p{M}\p{N}\p{Co}]+/gu)].map((m) => foldWord(m[0]));
  const matched = new Set<number>();
  for (const { words: wanted, prefix } of query.include) {
    const last = wanted.length - 1;
    for (let at = 0; at + last < folded.length; at++) {
      const fits = wanted.every((word, i) =>
        i === last && prefix ? folded[at + i].startsWith(word) : folded[at + i] === word,
      );
      if (fits) for (let i = 0; i <= last; i++) matched.add(at + i);
    }
  }
  return [...matched].sort((a, b) => a - b);
}

/** The snippet as the plain reading builds it: each piece escaped on its own. */
function plainSnippet(text: string, query: Query): string | null {
  const words = [...text.matchAll(/[\p{L}\p{M}\p{N}\p{Co}]+/gu)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
  const sorted = plainMatches(text, query);
  if (sorted.length === 0) return null;
  const matched = new Set(sorted);
  let best = { start: 0, shown: -1 };
  let last = 0;
  for (let first = 0; first < sorted.length; first++) {
    const start = Math.max(0, Math.min(sorted[first] - 4, words.length - SNIPPET_WORDS));
    while (last < sorted.length && sorted[last] < start + SNIPPET_WORDS) last++;
    if (last - first > best.shown) best = { start, shown: last - first };
  }
  let { start } = best;
  // Lead words, and what comes before the first word, only while the first match stays near.
  const first = sorted.find((i) => i >= start) as number;
  const far = (at: number) => words[first].start - at > SNIPPET_CHARACTERS / 2;
  const opening = start === 0 && !far(0);
  while (!opening && start < first && far(words[start].start)) start++;
  const end = Math.min(words.length, start + SNIPPET_WORDS);
  // The pieces shown, in order: text between words, and words, marked or not.
  const pieces: { text: string; marked?: boolean }[] = [];
  if (opening) pieces.push({ text: text.slice(0, words[0].start).trimStart() });
  let at = words[start].start;
  for (let i = start; i < end; i++) {
    pieces.push({ text: text.slice(at, words[i].start) });
    pieces.push({ text: text.slice(words[i].start, words[i].end), marked: matched.has(i) });
    at = words[i].end;
  }
  const rest = text.slice(at);
  pieces.push({
    text: (end < words.length ? rest.slice(0, words[end].start - at) : rest).trimEnd(),
  });
  let html = opening || !/\S/.test(text.slice(0, words[start].start)) ? '' : '…';
  let left = SNIPPET_CHARACTERS;
  for (const piece of pieces) {
    // Whole characters while they fit.
    let fits = '';
    for (const character of piece.text.replace(/\s+/gu, ' ')) {
      if (fits.length + character.length > left) break;
      fits += character;
    }
    const escaped = escapeHtml(fits);
    if (escaped) html += piece.marked ? `<mark>${escaped}</mark>` : escaped;
    if (fits !== piece.text.replace(/\s+/gu, ' ')) return `${html}…`;
    left -= fits.length;
  }
  return end < words.length ? `${html}…` : html;
}

describe('snippetOf against the plain reading', () => {
  const vocabulary = [
    'data',
    'Data',
    'DATABASE',
    'dat',
    'café',
    'Cafe',
    'ＧｒａｐｈＱＬ',
    'graph',
    'x1',
    'ÉCOLE',
    'ecole',
    'straße',
    'ﬁsh',
    'fish',
    'naïve',
    'A',
    'a',
  ];
  const separators = [' ', ', ', '. ', '\n', ' — ', '-', '<b>', '&', "'", '\x10', '@[`{', '  '];
  const queries = [
    'data ',
    'dat',
    'cafe ',
    'graphql ',
    '"data base"',
    'ecole fish ',
    'a ',
    'nai',
    '"cafe graph"',
    'x1 ',
  ];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };

  it('should give the snippet and marks of the plain reading, in 1,000 texts', () => {
    let compared = 0;
    for (let t = 0; t < 1000; t++) {
      const length = 1 + next(60);
      let text = '';
      for (let w = 0; w < length; w++) {
        text += vocabulary[next(vocabulary.length)] + separators[next(separators.length)];
      }
      // Half the texts ASCII only, so that both readings of the fast path are compared.
      if (t % 2 === 0) text = text.replace(/[\u0080-\uffff]/g, 'e');
      for (const q of queries) {
        const query = parseSearchQuery(q);
        const snippet = snippetOf(text, query);
        expect(snippet).toBe(plainSnippet(text, query));
        expect(markedWords(text, query)).toEqual(plainMatches(text, query));
        if (snippet !== null) compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('should stop reading a text at a window of matches only, with the snippet of a full scan', () => {
    let stoppedEarly = 0;
    for (let t = 0; t < 400; t++) {
      // Long texts of few distinct words: windows made only of matches come early and often.
      const length = 20 + next(400);
      let text = '';
      for (let w = 0; w < length; w++) {
        text += vocabulary[next(4)] + separators[next(3)];
      }
      for (const q of ['data ', '"data base"', 'dat', 'data dat ', 'x1 ']) {
        const query = parseSearchQuery(q);
        const snippet = snippetOf(text, query);
        expect(snippet).toBe(snippetOfByFullScan(text, query));
        if (snippet !== null && !snippet.includes('…</mark>')) stoppedEarly++;
      }
    }
    expect(stoppedEarly).toBeGreaterThan(100);
  });
});
