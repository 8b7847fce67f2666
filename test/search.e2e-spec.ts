import { EntityManager } from 'typeorm';

import { testDatabase } from './helpers/databases';
import { CREATE_POST, DELETE_POST, PUBLISH_POST, UPDATE_POST } from './helpers/documents';
import { insertUsersWithPosts } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';
import { collect, wsClient } from './helpers/ws-client';
import { Post } from '../src/blog';
import { Sql, SqlText, toDate } from '../src/blog/common/sql';
import { translate } from '../src/blog/common/sql/translate';
import { newId } from '../src/blog/common/uuid';
import {
  CreatePostSearch1765000100000,
  searchDocument,
} from '../src/blog/migrations/1765000100000-create-post-search';
import { FoldPostSearchText1765000400000 } from '../src/blog/migrations/1765000400000-fold-post-search-text';
import { KeepPostSearchInline1765000500000 } from '../src/blog/migrations/1765000500000-keep-post-search-inline';
import { IndexPostSearchPrefixes1765000700000 } from '../src/blog/migrations/1765000700000-index-post-search-prefixes';
import { DeferPostSearchIndexing1765000900000 } from '../src/blog/migrations/1765000900000-defer-post-search-indexing';
import { BoundPostSearchText1765000950000 } from '../src/blog/migrations/1765000950000-bound-post-search-text';
import {
  SearchRenderedText1765006000000,
  searchDocumentFaster,
} from '../src/blog/migrations/1765006000000-search-rendered-text';
import { SEARCHED_CONTENT_LENGTH } from '../src/blog/posts/post-search-text';
import { parseSearchQuery, toTsIndexQuery } from '../src/blog/search/search-query';
import { searchPageStatement } from '../src/blog/search/search.service';
import { SearchRow, searchSql } from '../src/blog/search/search.sql';

const SEARCH = `query Search($query: String!, $first: Int, $after: String, $tags: [String!]) {
  searchPosts(query: $query, first: $first, after: $after, tags: $tags) {
    edges { rank snippet cursor node { id title } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface SearchEdge {
  rank: number;
  snippet: string;
  cursor: string;
  node: { id: string; title: string };
}

interface SearchResult {
  searchPosts: {
    edges: SearchEdge[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

describe('searchPosts (e2e)', () => {
  let t: TestApp;
  let writers: TestUser[];
  let written = 0;

  beforeAll(async () => {
    t = await TestApp.start();
    writers = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
  });
  afterAll(() => t.close());

  /** Writes a post (published unless `publish: false`), spreading the writes over writers. */
  async function write(
    title: string,
    content: string,
    extra: { publish?: boolean; tags?: string[] } = {},
    author = writers[written++ % writers.length],
  ): Promise<string> {
    const { createPost } = await t.data<{ createPost: { id: string } }>(
      CREATE_POST,
      { input: { title, content, ...extra } },
      author.token,
    );
    return createPost.id;
  }

  async function search(query: string, variables: Record<string, unknown> = {}) {
    const { searchPosts } = await t.data<SearchResult>(SEARCH, { query, ...variables });
    return searchPosts;
  }

  const titlesFor = async (query: string, variables: Record<string, unknown> = {}) =>
    (await search(query, variables)).edges.map((edge) => edge.node.title);

  /**
   * On SQLite, FTS5 compares its index with the text that the index reads (an entry forgotten
   * by other text than it was made from stays behind, and fails this).
   */
  async function expectIndexInStep(): Promise<void> {
    if (testDatabase() !== 'sqlite') return;
    await t.dataSource.query(
      "INSERT INTO post_search_fts (post_search_fts, rank) VALUES ('integrity-check', 1)",
    );
  }

  /**
   * PostgreSQL's plan of a search statement for `values`; with `seqScans: false`, in a
   * transaction of its own that prices seq scans out.
   */
  async function planOf(
    statement: { text: SqlText },
    values: object,
    { seqScans = true }: { seqScans?: boolean } = {},
  ): Promise<string> {
    const { text, names } = translate(statement.text, 'postgres');
    const explain = async (on: EntityManager) => {
      const rows: { 'QUERY PLAN': string }[] = await on.query(
        `EXPLAIN ${text}`,
        names.map((name) => (values as Record<string, unknown>)[name]),
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    if (seqScans) return explain(t.dataSource.manager);
    const runner = t.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query('SET LOCAL enable_seqscan = off');
      return await explain(runner.manager);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  describe('ranking', () => {
    it('should rank a match in the title above matches in the content, and more matches above fewer', async () => {
      await write(
        'Once',
        'A walk by the river with one zebrafish in a tank, and nothing more to say.',
      );
      await write(
        'Thrice',
        'Zebrafish here, a zebrafish there, the zebrafish everywhere in the tank now.',
      );
      await write(
        'Zebrafish care',
        'A walk by the river with a pond and a tank, and nothing more to say.',
      );

      const edges = (await search('zebrafish ')).edges;
      expect(edges.map((edge) => edge.node.title)).toEqual(['Zebrafish care', 'Thrice', 'Once']);
      expect(edges[0].rank).toBeGreaterThan(edges[1].rank);
      expect(edges[1].rank).toBeGreaterThan(edges[2].rank);
    });

    it('should order posts of the same rank newest first', async () => {
      await write('Tie first', 'Identical quokka text.');
      await write('Tie second', 'Identical quokka text.');
      await write('Tie third', 'Identical quokka text.');
      const edges = (await search('quokka ')).edges;
      expect(edges.map((edge) => edge.node.title)).toEqual([
        'Tie third',
        'Tie second',
        'Tie first',
      ]);
      expect(new Set(edges.map((edge) => edge.rank)).size).toBe(1);
    });
  });

  describe('matching', () => {
    beforeAll(async () => {
      await write('Foxes', 'The quick brown fox jumps over the lazy dog.');
      await write('Reversed', 'A brown quick fox, said nobody, near the lazy cat.');
      await write('Fruit bowl', 'Kiwi and banana in one bowl.');
      await write('Kiwi only', 'Kiwi alone in a bowl.');
      await write('Biology', 'Photosynthesis turns light into sugar.');
    });

    it('should want every word (AND)', async () => {
      expect(await titlesFor('fox lazy dog ')).toEqual(['Foxes']);
      expect(await titlesFor('kiwi bowl ')).toEqual(
        expect.arrayContaining(['Fruit bowl', 'Kiwi only']),
      );
    });

    it('should match a quoted phrase only with its words in order', async () => {
      expect(await titlesFor('"quick brown"')).toEqual(['Foxes']);
      expect(await titlesFor('"brown quick"')).toEqual(['Reversed']);
      expect((await titlesFor('quick brown ')).sort()).toEqual(['Foxes', 'Reversed']);
    });

    it('should leave out a word or a phrase after -', async () => {
      expect(await titlesFor('kiwi -banana')).toEqual(['Kiwi only']);
      expect(await titlesFor('fox -"quick brown"')).toEqual(['Reversed']);
    });

    it('should read the last word as a prefix while it is typed, and whole after a space', async () => {
      expect(await titlesFor('photosyn')).toEqual(['Biology']);
      expect(await titlesFor('light photosynth')).toEqual(['Biology']);
      expect(await titlesFor('photosyn ')).toEqual([]);
      expect(await titlesFor('photosyn*  ')).toEqual(['Biology']);
    });

    it('should match whatever the case and accents', async () => {
      await write('Accents', 'Un café au lait à Besançon.');
      expect(await titlesFor('CAFÉ ')).toEqual(['Accents']);
      expect(await titlesFor('"au LAIT"')).toEqual(['Accents']);
    });

    it('should find plain text for an accented query, on every database', async () => {
      await write('Plain greeting', 'Hello wallabyland, a plain word.');
      expect(await titlesFor('Wällabÿland ')).toEqual(['Plain greeting']);
      expect(await titlesFor('WÀLLÁBY')).toEqual(['Plain greeting']);
    });

    it('should find accented text, composed or not, for a plain query', async () => {
      await write('Composed', 'Un crème brûlée à Zürichsee.');
      await write('Decomposed', 'Une cre\u0300me bru\u0302le\u0301e du lac.');
      expect((await titlesFor('"creme brulee"')).sort()).toEqual(['Composed', 'Decomposed']);
      expect(await titlesFor('zurichsee ')).toEqual(['Composed']);
      const edge = (await search('zurichsee ')).edges[0];
      expect(edge.snippet).toContain('<mark>Zürichsee</mark>');
    });

    it('should read fullwidth letters and quotes as the plain ones', async () => {
      await write('Fullwidth', 'Typed learning notes on nanoquery and GraphQL servers.');
      expect(await titlesFor('ＮａｎｏＱｕｅｒｙ')).toEqual(['Fullwidth']);
      expect(await titlesFor('\uff02ｎａｎｏｑｕｅｒｙ\u3000ａｎｄ\uff02')).toEqual(['Fullwidth']);
      const edge = (await search('ｎａｎｏｑｕｅｒｙ ')).edges[0];
      expect(edge.snippet).toContain('<mark>nanoquery</mark>');
    });

    it('should find fullwidth letters and ligatures in posts by their plain letters, on every database', async () => {
      const author = writers[2];
      const id = await write(
        'Ｗｉｄｅ ｐｏｓｔ',
        'Notes on ｂｕｒｒｏｗｓ and the ﬁreﬂy.',
        {},
        author,
      );
      expect(await titlesFor('burrows ')).toEqual(['Ｗｉｄｅ ｐｏｓｔ']);
      expect(await titlesFor('"firefly"')).toEqual(['Ｗｉｄｅ ｐｏｓｔ']);
      expect(await titlesFor('wide ')).toEqual(['Ｗｉｄｅ ｐｏｓｔ']);
      expect((await search('burrows ')).edges[0].snippet).toContain('<mark>ｂｕｒｒｏｗｓ</mark>');

      // An edit of the title alone keeps the content found by its plain letters.
      await t.data(UPDATE_POST, { id, input: { title: 'Narrow' } }, author.token);
      expect(await titlesFor('wide ')).toEqual([]);
      expect(await titlesFor('firefly ')).toEqual(['Narrow']);
      await t.data(
        UPDATE_POST,
        { id, input: { content: 'Plain ｗｏｍｂａｔｓ now.' } },
        author.token,
      );
      expect(await titlesFor('burrows ')).toEqual([]);
      expect(await titlesFor('wombats ')).toEqual(['Narrow']);
      await t.data(UPDATE_POST, { id, input: { title: 'Ｗｉｄｅ again' } }, author.token);
      expect(await titlesFor('wombats wide ')).toEqual(['Ｗｉｄｅ again']);

      await t.data(DELETE_POST, { id }, author.token);
      expect(await titlesFor('wombats ')).toEqual([]);
      await expectIndexInStep();
    });

    if (testDatabase() === 'sqlite') {
      it('should keep the index in step with text that another client writes', async () => {
        const id = await write('Written twice', 'First ｐａｎｇｏｌｉｎｓ here.');
        // A client other than the service (the sqlite3 shell, a script) writes the post itself,
        // its Markdown and the text rendered from it.
        await t.dataSource.query('UPDATE posts SET content = ?, content_text = ? WHERE id = ?', [
          'Then **ｍａｒｍｏｔｓ** and plain badgers.',
          'Then ｍａｒｍｏｔｓ and plain badgers.',
          id,
        ]);
        expect(await titlesFor('pangolins ')).toEqual([]);
        expect(await titlesFor('badgers ')).toEqual(['Written twice']);
        await expectIndexInStep();
        await t.dataSource.query('DELETE FROM posts WHERE id = ?', [id]);
        expect(await titlesFor('badgers ')).toEqual([]);
        await expectIndexInStep();
      });
    }
  });

  describe('the rendered text, not the Markdown', () => {
    const MARKDOWN = 'See [the docs](https://example.com/zebra-url) about **caching**';

    it("should find a post by the words of its text, not by its links' addresses or its markup", async () => {
      await write('Rendered', MARKDOWN);
      expect(await titlesFor('caching ')).toEqual(['Rendered']);
      expect(await titlesFor('docs ')).toEqual(['Rendered']);
      expect(await titlesFor('"the docs about"')).toEqual(['Rendered']);
      for (const word of ['zebra ', 'https ', 'example ', 'url ']) {
        expect({ word, found: await titlesFor(word) }).toEqual({ word, found: [] });
      }
      const [edge] = (await search('caching ')).edges;
      expect(edge.snippet).toBe('See the docs about <mark>caching</mark>');
      expect(edge.snippet).not.toMatch(/\*\*|\]\(/);
      await expectIndexInStep();
    });

    it('should index the text again when the content is edited, and keep it through other edits', async () => {
      const author = writers[0];
      const id = await write('Edited', 'A plain word about wapiti.', {}, author);
      const content = 'Now [a link](https://example.com/okra-path) on **kelp** and `ｆｅｎｎｅｃ`';
      await t.data(UPDATE_POST, { id, input: { content } }, author.token);
      expect(await titlesFor('wapiti ')).toEqual([]);
      expect(await titlesFor('kelp ')).toEqual(['Edited']);
      expect(await titlesFor('fennec ')).toEqual(['Edited']);
      expect(await titlesFor('okra ')).toEqual([]);
      const snippet = (await search('kelp ')).edges[0].snippet;
      expect(snippet).toBe('Now a link on <mark>kelp</mark> and ｆｅｎｎｅｃ');

      // An edit of the title alone keeps the text, folded, as the index reads it.
      await t.data(UPDATE_POST, { id, input: { title: 'Renamed' } }, author.token);
      expect(await titlesFor('okra ')).toEqual([]);
      expect(await titlesFor('"kelp and fennec"')).toEqual(['Renamed']);
      await expectIndexInStep();
    });

    it('should fold the text, not the Markdown, of a new post', async () => {
      await write(
        'Folded text',
        '[ﬁreﬂy notes](https://example.com/ｐａｎｄａ) on **ｂａｄｇｅｒｓ**',
      );
      expect(await titlesFor('"firefly notes on badgers"')).toEqual(['Folded text']);
      expect(await titlesFor('panda ')).toEqual([]);
      expect((await search('badgers ')).edges[0].snippet).toBe(
        'ﬁreﬂy notes on <mark>ｂａｄｇｅｒｓ</mark>',
      );
      await expectIndexInStep();
    });

    it('should read the text that another client writes, and the Markdown where it writes none', async () => {
      const at = (n: number) => (testDatabase() === 'postgres' ? `$${n}` : '?');
      const id = await write('Shell text', MARKDOWN.replace('caching', 'caribou'));
      const setText = (text: string | null) =>
        t.dataSource.query(`UPDATE posts SET content_text = ${at(1)} WHERE id = ${at(2)}`, [
          text,
          id,
        ]);
      // The text alone, as a script that renders the posts again would write it.
      await setText('Only otters now');
      expect(await titlesFor('caribou ')).toEqual([]);
      expect(await titlesFor('otters ')).toEqual(['Shell text']);
      await expectIndexInStep();
      // No text: the Markdown is all there is to read.
      await setText(null);
      expect(await titlesFor('otters ')).toEqual([]);
      expect(await titlesFor('zebra caribou')).toEqual(['Shell text']);
      await expectIndexInStep();
      await t.dataSource.query(`DELETE FROM posts WHERE id = ${at(1)}`, [id]);
      expect(await titlesFor('caribou ')).toEqual([]);
      await expectIndexInStep();
    });
  });

  describe('drafts and freshness', () => {
    it('should never find a draft, not even for its author', async () => {
      const author = writers[0];
      await write('Secret draft', 'Unpublished wombat thoughts.', { publish: false }, author);
      expect(await titlesFor('wombat ')).toEqual([]);
      const own = await t.data<SearchResult>(SEARCH, { query: 'wombat' }, author.token);
      expect(own.searchPosts.edges).toEqual([]);
    });

    it('should find a post in the very next request after it is created, edited, published or deleted', async () => {
      const author = writers[1];
      const id = await write('Fresh', 'About an axolotl.', {}, author);
      expect(await titlesFor('axolotl ')).toEqual(['Fresh']);

      await t.data(UPDATE_POST, { id, input: { content: 'About a narwhal now.' } }, author.token);
      expect(await titlesFor('axolotl ')).toEqual([]);
      expect(await titlesFor('narwhal ')).toEqual(['Fresh']);

      await t.data(UPDATE_POST, { id, input: { title: 'Renamed okapi' } }, author.token);
      expect(await titlesFor('fresh ')).toEqual([]);
      expect(await titlesFor('okapi ')).toEqual(['Renamed okapi']);

      await t.data(DELETE_POST, { id }, author.token);
      expect(await titlesFor('narwhal ')).toEqual([]);
      expect(await titlesFor('okapi ')).toEqual([]);

      const draft = await write('Later', 'A pangolin draft.', { publish: false }, author);
      expect(await titlesFor('pangolin ')).toEqual([]);
      await t.data(PUBLISH_POST, { id: draft }, author.token);
      expect(await titlesFor('pangolin ')).toEqual(['Later']);
    });

    it("should forget a deleted account's posts", async () => {
      const leaving = await t.signUp();
      await write('Leaving', 'A farewell capybara.', {}, leaving);
      expect(await titlesFor('capybara ')).toEqual(['Leaving']);
      await t.data(
        'mutation ($password: String!) { deleteAccount(password: $password) }',
        { password: leaving.password },
        leaving.token,
      );
      expect(await titlesFor('capybara ')).toEqual([]);
      // A post written after is found alone: no entry of the deleted post is left behind.
      await write('Arriving', 'A welcome capybara.');
      expect(await titlesFor('capybara farewell')).toEqual([]);
      expect(await titlesFor('capybara ')).toEqual(['Arriving']);
    });
  });

  describe('snippets', () => {
    it('should mark the matched words and escape every other character', async () => {
      // Code spans: the text holds the markup as characters, which the snippet escapes.
      await write(
        'Escaping',
        'Tom & Jerry `<script>alert(1)</script>` meet the gecko `<b>here</b>`.',
      );
      const [edge] = (await search('gecko ')).edges;
      expect(edge.snippet).toBe(
        'Tom &amp; Jerry &lt;script&gt;alert(1)&lt;/script&gt; meet the <mark>gecko</mark> ' +
          '&lt;b&gt;here&lt;/b&gt;.',
      );
    });

    it('should show the title when only the title matches', async () => {
      await write('The <iguana> & co', 'Nothing about that animal in the text.');
      const [edge] = (await search('iguana ')).edges;
      expect(edge.snippet).toBe('The &lt;<mark>iguana</mark>&gt; &amp; co');
    });

    it('should cut a long content to about 24 words around the match', async () => {
      const filler = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
      await write('Long', `${filler} the lemur sat ${filler}.`);
      const [edge] = (await search('lemur ')).edges;
      expect(edge.snippet).toMatch(/^…word77 word78 word79 the <mark>lemur<\/mark> sat word0 /);
      expect(edge.snippet.endsWith('…')).toBe(true);
    });
  });

  describe('the part of the content that is searched', () => {
    it(`should find and mark the words of the first ${SEARCHED_CONTENT_LENGTH} characters, and the title's`, async () => {
      const near = 'x '.repeat((SEARCHED_CONTENT_LENGTH - 10) / 2);
      const author = writers[0];
      const id = await write('Gannet title', `${near}gannet ${'y '.repeat(100)}puffin`, {}, author);
      expect(await titlesFor('gannet ')).toEqual(['Gannet title']);
      expect(await titlesFor('puffin ')).toEqual([]);
      expect(await titlesFor('gannet puffin')).toEqual([]);
      const [edge] = (await search('gannet ')).edges;
      expect(edge.snippet).toContain('<mark>gannet</mark>');
      expect(edge.snippet).not.toContain('puffin');

      // Characters as both databases count them: an emoji is one, in two UTF-16 units.
      await write('Emoji first', `${'😀 '.repeat((SEARCHED_CONTENT_LENGTH - 10) / 2)}shearwater`);
      const [far] = (await search('shearwater ')).edges;
      expect(far.node.title).toBe('Emoji first');
      expect(far.snippet).toContain('<mark>shearwater</mark>');

      // Moved past them by an edit, the word is gone; the title is searched whole.
      const moved = `${near}${'z '.repeat(10)}cormorant`;
      await t.data(UPDATE_POST, { id, input: { content: moved } }, author.token);
      expect(await titlesFor('cormorant ')).toEqual([]);
      expect(await titlesFor('gannet ')).toEqual(['Gannet title']);
      expect((await search('gannet ')).edges[0].snippet).toBe('<mark>Gannet</mark> title');
      await expectIndexInStep();
    });
  });

  describe('tags', () => {
    it('should keep only the posts that have all of the tags, read as tags are written', async () => {
      await write('Tagged both', 'A tapir story.', { tags: ['Zoo', 'South America'] });
      await write('Tagged one', 'Another tapir story.', { tags: ['zoo'] });
      await write('Untagged', 'A third tapir story.');
      expect((await titlesFor('tapir ', { tags: ['ZOO'] })).sort()).toEqual([
        'Tagged both',
        'Tagged one',
      ]);
      expect(await titlesFor('tapir ', { tags: ['zoo', 'south_america'] })).toEqual([
        'Tagged both',
      ]);
      expect(await titlesFor('tapir ', { tags: ['zoo', 'asia'] })).toEqual([]);
    });

    it('should refuse a tag with no letter or digit', async () => {
      const response = await t.gql(SEARCH, { query: 'tapir', tags: ['!!!'] });
      expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('pages', () => {
    beforeAll(async () => {
      // 30 posts of equal rank (ties across page boundaries) and 15 of higher ranks.
      await insertUsersWithPosts(t.dataSource, 3, 10);
      for (let i = 0; i < 15; i++) {
        await write(`Bulk ${i}`, `${'bulk '.repeat(1 + (i % 5))}content`);
      }
    });

    it('should page through every match once, in the order of one big page', async () => {
      const all = (await search('bulk ', { first: 100 })).edges.map((edge) => edge.node.id);
      expect(all).toHaveLength(45);
      const paged: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: SearchResult['searchPosts'] = await search('bulk ', { first: 7, after });
        paged.push(...page.edges.map((edge) => edge.node.id));
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        pages++;
      } while (after);
      expect(pages).toBe(7);
      expect(paged).toEqual(all);
    });

    it('should skip and repeat no post while others are written between the pages', async () => {
      const authors = [await t.signUp(), await t.signUp(), await t.signUp()];
      let n = 0;
      const post = (title: string, content: string) =>
        write(title, content, {}, authors[n++ % authors.length]);
      // Ranks that tie and ranks that differ: a match in the title, and 1 to 4 in the content.
      for (let i = 0; i < 24; i++) {
        const title = i % 6 === 0 ? `Kestrel ${i}` : `Bird ${i}`;
        await post(title, `${'kestrel '.repeat(1 + (i % 4))}over the field`);
      }
      const before = (await search('kestrel ', { first: 100 })).edges.map((edge) => edge.node.id);
      expect(before).toHaveLength(24);
      const paged: string[] = [];
      let after: string | null = null;
      do {
        const page: SearchResult['searchPosts'] = await search('kestrel ', { first: 5, after });
        paged.push(...page.edges.map((edge) => edge.node.id));
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        // Between two pages: a match above every other, one below most, one that ties, and a
        // post that does not match.
        await post('Kestrel above all', 'kestrel '.repeat(12));
        await post('Bird below', 'One kestrel far away, among a great many other words.');
        await post('Bird tie', 'kestrel kestrel over the field');
        await post('Sparrow', 'No bird of prey here.');
      } while (after);
      expect(new Set(paged).size).toBe(paged.length);
      // Every post of the first search, once each, in its order.
      expect(paged.filter((id) => before.includes(id))).toEqual(before);
    });

    it('should refuse a page size above 100 and a cursor that is not one', async () => {
      for (const variables of [{ first: 101 }, { first: -1 }, { after: 'bm90IGEgY3Vyc29y' }]) {
        const response = await t.gql(SEARCH, { query: 'bulk', ...variables });
        expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      }
    });

    it('should send one statement for the page and one for the authors, however many posts', async () => {
      const query = `query ($first: Int) { searchPosts(query: "bulk", first: $first) {
        edges { node { id author { name } } } } }`;
      const counts: number[] = [];
      for (const first of [2, 40]) {
        counts.push(
          await t.statements.count(async () => {
            const data = await t.data(query, { first });
            expect(data.searchPosts.edges).toHaveLength(first);
          }),
        );
      }
      // On SQLite the page is read in a transaction (BEGIN and COMMIT) that first looks for
      // posts not indexed yet: see PostSearchIndex.
      const perSearch = testDatabase() === 'sqlite' ? 5 : 2;
      expect(counts).toEqual([perSearch, perSearch]);
    });
  });

  describe('the rank window', () => {
    let narrow: TestApp;
    const ids: string[] = [];

    beforeAll(async () => {
      narrow = await TestApp.start({ shareDatabaseOf: t, env: { SEARCH_RANK_WINDOW: '4' } });
      // The oldest post matches best (in its title) and has a tag of its own; the newest is a draft.
      ids.push(await write('Numbat', 'the numbat smiles', { tags: ['marsupial'] }));
      for (let i = 1; i <= 6; i++) {
        ids.push(await write(`Post ${i}`, `${'filler '.repeat(i)}one numbat`));
      }
      await write('Numbat draft', 'numbat numbat numbat', { publish: false });
    });
    afterAll(() => narrow.close());

    const narrowSearch = async (query: string, variables: Record<string, unknown> = {}) =>
      (await narrow.data<SearchResult>(SEARCH, { query, ...variables })).searchPosts;

    it('should rank every match while they fit in the window', async () => {
      const edges = (await search('numbat ')).edges;
      expect(edges.map((edge) => edge.node.id).sort()).toEqual([...ids].sort());
      expect(edges[0].node.title).toBe('Numbat');
    });

    it('should rank and list only the most recently written published matches beyond it', async () => {
      const edges = (await narrowSearch('numbat ', { first: 100 })).edges;
      expect(edges.map((edge) => edge.node.id).sort()).toEqual(ids.slice(-4).sort());
      const wide = (await search('numbat ', { first: 100 })).edges.filter((edge) =>
        ids.slice(-4).includes(edge.node.id),
      );
      // The same posts in the same order, with the same ranks, as when every match is ranked.
      expect(edges).toEqual(wide);
    });

    it('should page through the window once, ending where it ends', async () => {
      const first = await narrowSearch('numbat ', { first: 3 });
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = await narrowSearch('numbat ', { first: 3, after: first.pageInfo.endCursor });
      expect(second.edges).toHaveLength(1);
      expect(second.pageInfo.hasNextPage).toBe(false);
    });

    it('should filter by tags before it windows, so an old tagged post is still found', async () => {
      const edges = (await narrowSearch('numbat ', { tags: ['marsupial'] })).edges;
      expect(edges.map((edge) => edge.node.id)).toEqual([ids[0]]);
    });
  });

  if (testDatabase() === 'postgres') {
    describe("PostgreSQL's way to the window", () => {
      beforeAll(async () => {
        // 1,000 posts that all say "content", then the statistics the planner reads.
        await insertUsersWithPosts(t.dataSource, 20, 50);
        await t.dataSource.query('ANALYZE post_search');
      });

      const planFor = (tsquery: string, options?: { seqScans: boolean }) =>
        planOf(searchSql.page, { tsquery, rankWindow: 20, first: 21 }, options);

      it("should read the page's posts through their primary key, not by reading them all", async () => {
        // With seq scans priced out, only an index the join cannot use leaves one in the plan
        // (a post_search.post_id of another collation than posts.id did: a hash join over every
        // post, 50 ms a search at 100,000 posts).
        const plan = await planFor("'content'", { seqScans: false });
        expect(plan).not.toMatch(/Seq Scan on posts/);
        expect(plan).toMatch(/Index Scan using "?PK_\w+"? on posts/);
      });

      it('should walk from the newest post for a common word, and not for a rare one', async () => {
        // The planner sees the words: the statement is planned for each search. (On a table
        // this small, a rare word is cheapest read in full; at 100,000 posts, through GIN.)
        expect(searchSql.page.planEachRun).toBe(true);
        expect(await planFor("'content'")).toMatch(/Index Scan Backward/);
        expect(await planFor("'zebrafish'")).not.toMatch(/Index Scan Backward/);
      });
    });
  }

  if (testDatabase() === 'postgres') {
    describe("PostgreSQL's index of prefixes", () => {
      // Words that share their first letters, a word of exactly 2 and of 3 letters, digits,
      // accents and kanji, and posts written at once so that the rank window cuts through them.
      const VOCABULARY = [
        'chisel',
        'chimney',
        'child',
        'chi',
        'ch',
        'cheap',
        'chess',
        'graph',
        'graphql',
        'grab',
        'green',
        'gr',
        'nest',
        'nestjs',
        'net',
        'ne',
        'otter',
        '2026',
        '20',
        '2',
        'éclair',
        'eclat',
        '東京',
        '東北',
        'apple',
        'apply',
        'ape',
      ];
      let seed = 11;
      const pick = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return VOCABULARY[seed % VOCABULARY.length];
      };

      beforeAll(async () => {
        for (let i = 0; i < 48; i++) {
          const words = Array.from({ length: 3 + (i % 9) }, pick);
          await write(`${pick()} ${pick()}`, words.join(' '), {
            publish: i % 7 !== 3,
            tags: i % 2 === 0 ? ['even'] : [],
          });
        }
      });

      /**
       * What a search of `text` answers on each way: the statements of the plain path (the
       * whole query to the index of words) and of short prefixes (the prefixes to their index).
       */
      async function bothWays(
        text: string,
        extra: { rankWindow?: number; tags?: string[]; after?: SearchRow } = {},
      ) {
        const { rankWindow = 1_000, tags = [], after } = extra;
        const cursor = after && { ...after, publishedAt: toDate(after.publishedAt)! };
        const request = { first: 100, after: cursor ?? null, tags };
        const { name, parameters } = searchPageStatement(
          parseSearchQuery(text),
          request,
          rankWindow,
        );
        if (!name.startsWith('pageByPrefixes')) {
          throw new Error(`${text} has no short prefix with other words`);
        }
        const sql = t.app.get(Sql);
        const statements = sql.prepare(searchSql);
        const plain = name.replace('ByPrefixes', '') as keyof typeof searchSql;
        return {
          plain: await sql.all(statements[plain], parameters),
          byPrefixes: await sql.all(statements[name], parameters),
        };
      }

      /** Every word of the vocabulary with 2- and 3-letter prefixes of its words, and more. */
      const QUERIES = [
        ...VOCABULARY.flatMap((word) =>
          ['ch', 'chi', 'gr', 'gra', 'ne', 'nes', '20', '202', 'ec', 'ecl', '東京', 'ap', 'zz'].map(
            (prefix) => `${word} ${prefix}`,
          ),
        ),
        'chisel-gr',
        'graph-ch',
        'nest -child ch',
        'nest -"chisel chimney" gr',
        'ch* gr* nest',
        '"green otter" ap',
        'éclair ECL',
        'Chimney CH',
        '2026 2',
        'otter-ne-ch',
      ];

      it('should answer every query exactly as the plain path, rank for rank', async () => {
        let found = 0;
        let compared = 0;
        for (const text of QUERIES) {
          if (!toTsIndexQuery(parseSearchQuery(text))) continue;
          const { plain, byPrefixes } = await bothWays(text);
          expect({ text, rows: byPrefixes }).toEqual({ text, rows: plain });
          found += plain.length;
          compared++;
        }
        // The comparison is of posts found, not of empty answers, and of nearly every query.
        expect(compared).toBeGreaterThan(QUERIES.length - 40);
        expect(found).toBeGreaterThan(compared * 3);
      });

      it('should answer the same through the rank window, the tags and the pages', async () => {
        for (const text of ['nest ch', 'graph ne', 'apple ap', 'chess 20']) {
          const narrow = await bothWays(text, { rankWindow: 5 });
          expect(narrow.byPrefixes).toEqual(narrow.plain);
          expect(narrow.plain.length).toBeGreaterThan(0);
          const tagged = await bothWays(text, { tags: ['even'] });
          expect(tagged.byPrefixes).toEqual(tagged.plain);
          expect(tagged.plain.length).toBeGreaterThan(2);
          const next = await bothWays(text, { tags: ['even'], after: tagged.plain[1] });
          expect(next.byPrefixes).toEqual(next.plain);
          expect(next.plain).toEqual(tagged.plain.slice(2));
        }
      });

      it('should find the prefix as one entry of the index, not by gathering its words', async () => {
        const request = { first: 20, after: null, tags: [] };
        const { name, parameters } = searchPageStatement(parseSearchQuery('nest chi'), request, 20);
        const plan = await planOf(searchSql[name], parameters, { seqScans: false });
        const condition = /Index Cond: (.*)/.exec(plan)?.[1] ?? '';
        expect(plan).toMatch(/Bitmap Index Scan on "IDX_post_search_words"/);
        expect(condition).toContain("post_search_prefixes(document) @@ '''chi'''::tsquery");
        expect(condition).not.toContain(':*');
      });

      it('should search through the API by the prefixes, with the answers of the plain path', async () => {
        const { plain } = await bothWays('nest ch');
        expect(plain.length).toBeGreaterThan(0);
        const edges = (await search('nest ch', { first: 100 })).edges;
        expect(edges.map((edge) => edge.node.id)).toEqual(plain.map((row) => row.id));
        expect(edges.map((edge) => edge.rank)).toEqual(plain.map((row) => Number(row.rank)));
      });
    });
  }

  describe('hostile queries', () => {
    beforeAll(async () => {
      await write(
        'Hostile target',
        'Plain words for hostile queries: select from posts where one.',
      );
    });

    const queries = [
      '"',
      '"""',
      '"unbalanced',
      'unbalanced"',
      '-',
      '--',
      '""',
      '*',
      '**',
      'AND OR NOT',
      'NOT',
      '-posts',
      'NEAR(posts select, 2)',
      'title:posts',
      '^posts',
      'posts + select',
      "'; DROP TABLE posts; --",
      "posts' OR '1'='1",
      'posts) OR (1=1',
      'posts & select | !where',
      "'posts':* <-> 'select'",
      '\\',
      '%_%',
      '😀🎉',
      'posts 😀',
      'ＰＯＳＴＳ',
      'x'.repeat(10_240),
      'posts\u0000',
      'posts\u001b[2J',
      '\u202Eposts',
      'posts\t\nselect',
      Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '),
      '日本語',
      '\uD800',
    ];

    it.each(queries.map((query) => [JSON.stringify(query).slice(0, 40), query]))(
      'should answer %s with results or BAD_USER_INPUT, never a database error',
      async (_, query) => {
        const response = await t.gql(SEARCH, { query });
        if (response.errors) {
          expect(response.errors).toHaveLength(1);
          expect(response.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
          expect(response.errors[0].message).not.toMatch(/sql|fts5|tsquery|syntax/i);
        } else {
          expect(Array.isArray(response.data?.searchPosts.edges)).toBe(true);
        }
      },
    );

    it('should find the words of a query full of operators as plain words', async () => {
      expect(await titlesFor("'; posts; -- select")).toEqual(['Hostile target']);
      expect(await titlesFor("'; DROP TABLE posts; --")).toEqual([]);
      expect(await titlesFor('NEAR(posts select, 2)')).toEqual([]);
      expect(await titlesFor('posts & select | !where')).toEqual(['Hostile target']);
    });

    it('should say what is wrong with a refused query', async () => {
      const cases: [string, RegExp][] = [
        ['', /no word/],
        ['-posts', /not only words to leave out/],
        ['x'.repeat(10_240), /at most 256 characters/],
        [Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), /at most 16 words/],
        ['posts\u0000', /control characters|NUL/i],
      ];
      for (const [query, message] of cases) {
        const response = await t.gql(SEARCH, { query });
        expect(response.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(response.errors?.[0].message).toMatch(message);
      }
    });
  });

  describe('the rules of every list', () => {
    it('should price the page by its size in the cost rule', async () => {
      const query = (first: number) => `{ searchPosts(query: "bulk", first: ${first}) {
        edges { node { comments(first: 100) { author { posts(first: 100) { id } } } } } } }`;
      const costly = await t.gql(query(100));
      expect(costly.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(costly.errors?.[0].message).toMatch(/too complex/);
      const cheap = await t.gql(query(1));
      expect(cheap.errors).toBeUndefined();
    });

    it('should be refused on the WebSocket, as every query is, so that HTTP alone runs it', async () => {
      const { ws } = await t.listen();
      const { client } = wsClient(ws);
      try {
        const found = collect<SearchResult>(client, SEARCH, { query: 'bulk ', first: 5 });
        const [result] = await found.next(1);
        expect(result.data ?? null).toBeNull();
        expect(result.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
      } finally {
        await client.dispose();
      }
    });
  });

  describe('the migration', () => {
    it('should index the posts that exist when it runs, and leave nothing behind when reverted', async () => {
      await write('Before the index', 'An ocelot that was written first.');
      const search = new CreatePostSearch1765000100000();
      const folding = new FoldPostSearchText1765000400000();
      const inline = new KeepPostSearchInline1765000500000();
      const prefixes = new IndexPostSearchPrefixes1765000700000();
      const deferred = new DeferPostSearchIndexing1765000900000();
      const bound = new BoundPostSearchText1765000950000();
      const rendered = new SearchRenderedText1765006000000();
      const runner = t.dataSource.createQueryRunner();
      try {
        await rendered.down(runner);
        await bound.down(runner);
        await deferred.down(runner);
        await prefixes.down(runner);
        await inline.down(runner);
        await folding.down(runner);
        await search.down(runner);
        expect(await runner.hasTable('post_search')).toBe(false);
        // Written while there is no index: the migrations must find it all the same.
        await write('Without the index', 'A second ocelot.');
        await search.up(runner);
        await folding.up(runner);
        await inline.up(runner);
        await prefixes.up(runner);
        await deferred.up(runner);
        await bound.up(runner);
        await rendered.up(runner);
      } finally {
        await runner.release();
      }
      expect((await titlesFor('ocelot ')).sort()).toEqual([
        'Before the index',
        'Without the index',
      ]);
      expect(await titlesFor('"second ocelot"')).toEqual(['Without the index']);
      await expectIndexInStep();
    });

    it('should cut the content of the posts there are, and search it whole again when reverted', async () => {
      const far = `${'x '.repeat(SEARCHED_CONTENT_LENGTH / 2)}albatross`;
      const author = writers[1];
      await write('Far one', far, {}, author);
      // Written by another client: on SQLite its entry is not made yet when the migration runs.
      const at = new Date();
      await t.dataSource.getRepository(Post).insert({
        id: newId(),
        title: 'Shell one',
        content: `${far} petrel`,
        authorId: author.user.id,
        createdAt: at,
        updatedAt: at,
        publishedAt: at,
      });
      const bound = new BoundPostSearchText1765000950000();
      const rendered = new SearchRenderedText1765006000000();
      const runner = t.dataSource.createQueryRunner();
      try {
        await rendered.down(runner);
        await bound.down(runner);
        expect((await titlesFor('albatross ')).sort()).toEqual(['Far one', 'Shell one']);
        expect(await titlesFor('petrel ')).toEqual(['Shell one']);
        await expectIndexInStep();
        await bound.up(runner);
        await rendered.up(runner);
      } finally {
        await runner.release();
      }
      expect(await titlesFor('albatross ')).toEqual([]);
      expect(await titlesFor('petrel ')).toEqual([]);
      expect((await titlesFor('"x x" one')).sort()).toEqual(['Far one', 'Shell one']);
      await expectIndexInStep();
    });

    it('should read the rendered text of the posts there are, and their Markdown again when reverted', async () => {
      const author = writers[2];
      await write('Markdown one', 'See [the heron](https://example.com/egret-url) in **ｍｕｄ**');
      // Written by another client, without a text: its Markdown is read either way.
      const at = new Date();
      await t.dataSource.getRepository(Post).insert({
        id: newId(),
        title: 'Shell two',
        content: 'A [bittern](https://example.com/egret-url)',
        authorId: author.user.id,
        createdAt: at,
        updatedAt: at,
        publishedAt: at,
      });
      // Past 5,000 characters of Markdown, within 5,000 of text.
      const links = '[a](https://example.com/long-address-of-a-link) '.repeat(120);
      await write('Long links', `${links}spoonbill`, {}, author);
      const rendered = new SearchRenderedText1765006000000();
      const runner = t.dataSource.createQueryRunner();
      try {
        await rendered.down(runner);
        expect((await titlesFor('egret ')).sort()).toEqual(['Markdown one', 'Shell two']);
        expect(await titlesFor('spoonbill ')).toEqual([]);
        expect(await titlesFor('"heron in mud"')).toEqual([]);
        expect(await titlesFor('mud ')).toEqual(['Markdown one']);
        await expectIndexInStep();
        await rendered.up(runner);
      } finally {
        await runner.release();
      }
      expect(await titlesFor('egret ')).toEqual(['Shell two']);
      expect(await titlesFor('"heron in mud"')).toEqual(['Markdown one']);
      expect(await titlesFor('spoonbill ')).toEqual(['Long links']);
      expect((await search('heron ')).edges[0].snippet).toBe(
        'See the <mark>heron</mark> in ｍｕｄ',
      );
      await expectIndexInStep();
    });

    if (testDatabase() === 'sqlite') {
      it('should fold the text of the posts there are, and read their own text again when reverted', async () => {
        await write('Folded before', 'The ｆｅｎｎｅｃ and the ﬁnch.');
        const folding = new FoldPostSearchText1765000400000();
        const deferred = new DeferPostSearchIndexing1765000900000();
        const bound = new BoundPostSearchText1765000950000();
        const rendered = new SearchRenderedText1765006000000();
        const runner = t.dataSource.createQueryRunner();
        try {
          await rendered.down(runner);
          await bound.down(runner);
          await deferred.down(runner);
          await folding.down(runner);
          // The service's search needs the later migration: the index is asked directly.
          const [{ found }]: { found: number }[] = await runner.query(
            "SELECT count(*) AS found FROM post_search_fts WHERE post_search_fts MATCH 'fennec'",
          );
          expect(found).toBe(0);
          await expectIndexInStep();
          await folding.up(runner);
          await deferred.up(runner);
          await bound.up(runner);
          await rendered.up(runner);
        } finally {
          await runner.release();
        }
        expect(await titlesFor('fennec finch ')).toEqual(['Folded before']);
        await expectIndexInStep();
      });
    }

    if (testDatabase() === 'postgres') {
      /** How many chunks of documents are stored outside their rows, in the TOAST table. */
      const chunksOutOfRow = async () => {
        const [{ toast }]: { toast: string }[] = await t.dataSource.query(
          "SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE relname = 'post_search'",
        );
        const [{ count }]: { count: string }[] = await t.dataSource.query(
          `SELECT count(*) AS count FROM ${toast}`,
        );
        return Number(count);
      };
      it('should keep the documents in their rows, and move them out again when reverted', async () => {
        // 400 made-up words: a document of about 6 kB that pglz cannot shrink by a quarter.
        let seed = 7;
        const letter = () => {
          seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
          return String.fromCharCode(97 + (seed % 26));
        };
        const words = Array.from({ length: 400 }, () => Array.from({ length: 8 }, letter).join(''));
        await write('A long aardwolf', `${words.join(' ')} aardwolf`);
        const inline = new KeepPostSearchInline1765000500000();
        const runner = t.dataSource.createQueryRunner();
        try {
          await inline.down(runner);
          expect(await chunksOutOfRow()).toBeGreaterThan(0);
          expect(await titlesFor('aardwolf ')).toEqual(['A long aardwolf']);
          await inline.up(runner);
        } finally {
          await runner.release();
        }
        expect(await chunksOutOfRow()).toBe(0);
        expect(await titlesFor('aardwolf ')).toEqual(['A long aardwolf']);
        expect(await titlesFor(`"${words[398]} ${words[399]}" aardw`)).toEqual(['A long aardwolf']);
      });

      it('should index the prefixes past the statement timeout of requests, and only there', async () => {
        const prefixes = new IndexPostSearchPrefixes1765000700000();
        const runner = t.dataSource.createQueryRunner();
        const timeout = async () =>
          ((await runner.query('SHOW statement_timeout')) as { statement_timeout: string }[])[0]
            .statement_timeout;
        try {
          const before = await timeout();
          expect(before).not.toBe('0');
          // As the migrations run: each in a transaction of its own.
          await runner.startTransaction();
          await prefixes.down(runner);
          await prefixes.up(runner);
          expect(await timeout()).toBe('0');
          await runner.commitTransaction();
          expect(await timeout()).toBe(before);
        } finally {
          if (runner.isTransactionActive) await runner.rollbackTransaction();
          await runner.release();
        }
        expect(await titlesFor('aardwolf lo')).toEqual(['A long aardwolf']);
      });

      it('should make the same documents as the first migration, by the faster expression', async () => {
        const ascii = Array.from({ length: 127 }, (_, i) => String.fromCharCode(i + 1)).join('');
        const texts = [
          ascii,
          'Un crème brûlée à Zürichsee, une cre\u0300me bru\u0302le\u0301e.',
          'ｇｒａｐｈ ＱＬ, the ﬁrst ﬂy, ﬀ ﬃ, ①②, ½, ㎏, ℌ, Ǆ ǅ, Ω Å K',
          'Hangul 한국어 각 \u1100\u1161\u11a8, 東京 2026年, ø ß Æ œ ı',
          'foo-bar x@y.com 1.5 <tags> a_b [link](https://example.com/path?q=1#x) **bold**',
          '\u00a0non\u2002breaking\u3000spaces, “curly” ‘quotes’ — dashes…',
          '😀 emoji 👍🏽, x\u0301\u0327, \u202eright-to-left\u202c, \ufeffbom',
        ];
        const differing = (title: string, content: string) =>
          `count(*) FILTER (WHERE ${searchDocument(title, content)} <> ` +
          `${searchDocumentFaster(title, content)}) AS differing, count(*) AS compared`;
        const [given] = await t.dataSource.query(
          `SELECT ${differing('x', 'x')} FROM unnest($1::text[]) AS t(x)`,
          [texts],
        );
        expect(given).toEqual({ differing: '0', compared: String(texts.length) });
        // The posts of this database, with these texts as posts of their own, so that the check
        // stands alone as well as after the tests above.
        const [author] = (await insertUsersWithPosts(t.dataSource, 1, 0)).users;
        const at = new Date();
        await t.dataSource.getRepository(Post).insert(
          texts.map((text, i) => ({
            id: newId(),
            title: text.slice(0, 100),
            content: text,
            renderedText: i % 2 === 0 ? text : undefined,
            authorId: author.id,
            createdAt: at,
            updatedAt: at,
            publishedAt: at,
          })),
        );
        const [posts] = await t.dataSource.query(
          `SELECT ${differing('p.title', 'coalesce(p.content_text, p.content)')} FROM posts p`,
        );
        expect(posts.differing).toBe('0');
        expect(Number(posts.compared)).toBeGreaterThanOrEqual(texts.length);
      });
    }
  });
});
