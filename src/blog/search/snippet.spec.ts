import { parseSearchQuery } from './search-query';
import { escapeHtml, openingOf, SNIPPET_WORDS, snippetOf } from './snippet';

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
});

describe('escapeHtml', () => {
  it('should escape the five characters that matter in HTML', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
