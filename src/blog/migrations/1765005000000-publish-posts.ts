import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

import { idColumn, timestampColumn } from './column-types';
import { renderCommentText, renderPostContent } from '../common/content';
import { postCard } from '../posts/post-card';
import { slugCandidates, slugOfTitle } from '../posts/post-slug';

/** Rows read and written a page at a time, in id order. */
const ROWS_PER_PAGE = 500;

/** The placeholder of the `n`th parameter of a statement. */
const placeholders = (postgres: boolean) => (n: number) => (postgres ? `$${n}` : '?');

/** `(…), (…)` for rows of values, numbering the parameters from 1. */
function rowsOf(rows: unknown[][], p: (n: number) => string): string {
  let n = 0;
  return rows.map((row) => `(${row.map(() => p(++n)).join(', ')})`).join(', ');
}

const POST_COLUMNS = (timestamp: string) => [
  'slug varchar(100)',
  'excerpt varchar(300)',
  'custom_excerpt varchar(300)',
  'content_html text',
  'content_text text',
  'toc text',
  'word_count integer',
  'cover_url varchar(2048)',
  'cover_alt varchar(300)',
  'cover_caption varchar(500)',
  'seo_title varchar(200)',
  'seo_description varchar(500)',
  'seo_canonical_url varchar(2048)',
  `scheduled_at ${timestamp}`,
];

/**
 * Publishing (issue 64): every post gets a slug, kept with its earlier ones in `post_slugs`, its
 * Markdown rendered once into sanitised HTML, plain text and headings, a card (excerpt, word
 * count, cover, SEO fields) and a time it is scheduled for. Comments get their text rendered.
 * Existing posts and comments are rendered here, a page at a time, with the app's own renderer;
 * a post's slug is made from its title, oldest post first, with `-2`, `-3` … on a clash.
 */
export class PublishPosts1765005000000 implements MigrationInterface {
  name = 'PublishPosts1765005000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    for (const column of POST_COLUMNS(timestamp)) {
      await queryRunner.query(`ALTER TABLE posts ADD COLUMN ${column}`);
    }
    await queryRunner.query('ALTER TABLE comments ADD COLUMN text_html text');
    await queryRunner.createTable(
      new Table({
        name: 'post_slugs',
        columns: [
          { name: 'slug', type: 'varchar', length: '100', isPrimary: true },
          idColumn('post_id'),
          timestampColumn(queryRunner, 'created_at'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_post_slugs_post',
            columnNames: ['post_id'],
            referencedTableName: 'posts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [new TableIndex({ name: 'IDX_post_slugs_post', columnNames: ['post_id'] })],
      }),
    );
    await this.renderPosts(queryRunner, postgres);
    await this.renderComments(queryRunner, postgres);
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_posts_slug" ON posts (slug)');
    // The scheduler's scan for due posts reads this index alone.
    await queryRunner.query('CREATE INDEX "IDX_posts_scheduled" ON posts (scheduled_at, id)');
  }

  private async renderPosts(queryRunner: QueryRunner, postgres: boolean): Promise<void> {
    const p = placeholders(postgres);
    const taken = new Set<string>();
    let after = '';
    for (;;) {
      const rows: Array<{ id: string; title: string; content: string }> = await queryRunner.query(
        `SELECT id, title, content FROM posts WHERE id > ${p(1)} ORDER BY id LIMIT ${ROWS_PER_PAGE}`,
        [after],
      );
      if (rows.length === 0) return;
      const values = rows.map((row) => {
        const base = slugOfTitle(row.title);
        let slug = base;
        for (let round = 0; taken.has(slug); round++) {
          slug = slugCandidates(base, round).find((candidate) => !taken.has(candidate)) ?? slug;
        }
        taken.add(slug);
        const rendered = renderPostContent(row.content);
        const { excerpt, wordCount } = postCard(rendered, null);
        const toc = JSON.stringify(rendered.toc);
        return [row.id, slug, excerpt, rendered.html, rendered.text, toc, wordCount];
      });
      // One statement a page: a VALUES list joined to the posts by id.
      await queryRunner.query(
        'UPDATE posts SET slug = v.column2, excerpt = v.column3, content_html = v.column4, ' +
          'content_text = v.column5, toc = v.column6, word_count = CAST(v.column7 AS integer) ' +
          `FROM (VALUES ${rowsOf(values, p)}) AS v WHERE posts.id = v.column1`,
        values.flat(),
      );
      await queryRunner.query(
        'INSERT INTO post_slugs (slug, post_id, created_at) ' +
          `SELECT slug, id, created_at FROM posts WHERE id IN (${rows.map((_, i) => p(i + 1)).join(', ')})`,
        rows.map((row) => row.id),
      );
      if (rows.length < ROWS_PER_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  private async renderComments(queryRunner: QueryRunner, postgres: boolean): Promise<void> {
    const p = placeholders(postgres);
    let after = '';
    for (;;) {
      const rows: Array<{ id: string; text: string }> = await queryRunner.query(
        `SELECT id, text FROM comments WHERE id > ${p(1)} ORDER BY id LIMIT ${ROWS_PER_PAGE}`,
        [after],
      );
      if (rows.length === 0) return;
      const values = rows.map(({ id, text }) => [id, renderCommentText(text).html]);
      await queryRunner.query(
        'UPDATE comments SET text_html = v.column2 ' +
          `FROM (VALUES ${rowsOf(values, p)}) AS v WHERE comments.id = v.column1`,
        values.flat(),
      );
      if (rows.length < ROWS_PER_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_posts_scheduled"');
    await queryRunner.query('DROP INDEX "IDX_posts_slug"');
    await queryRunner.dropTable('post_slugs');
    await queryRunner.query('ALTER TABLE comments DROP COLUMN text_html');
    for (const column of POST_COLUMNS('').reverse()) {
      await queryRunner.query(`ALTER TABLE posts DROP COLUMN ${column.split(' ')[0]}`);
    }
  }
}
