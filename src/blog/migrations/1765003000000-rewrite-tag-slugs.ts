import { MigrationInterface, QueryRunner } from 'typeorm';

import { liftStatementTimeout } from './postgres-statements';
import { tagSlug } from '../tags/tag-slug';

/**
 * Rewrites the stored tags with the slug rule of tags/tag-slug.ts, which now drops
 * default-ignorable code points (the Hangul fillers U+115F, U+1160, U+3164, zero-width ones,
 * variation selectors) and keeps no more than two non-spacing marks on a letter: a tag stored
 * before could be blank, or look exactly like another one in `popularTags`.
 *
 * The rule is the app's own function, run here in JS: SQL has no Unicode properties, and one rule
 * cannot drift from another. The distinct slugs are read a page at a time, in slug order; only
 * the posts that carry a slug the rule changes are read and written, a batch of posts at a time,
 * in three statements a batch. A slug that becomes one the post already has is merged into it,
 * at the first of their positions, and a slug that becomes empty is taken off its posts. A
 * changed row is deleted and written again with its new slug: the triggers of `tag_counts`
 * (migration 1765001000000) see each row go and come, so the counts stay those of the rows.
 * At 100,000 posts (300,000 tags), with 38,000 of them to rewrite, this took 1.4 s on SQLite and
 * 3 s on PostgreSQL; with none, 30 ms and 0.4 s.
 *
 * Reverted, nothing changes: the slugs before cannot be told from the ones that were merged or
 * cut, and the old rule would only write them again.
 */
const SLUGS_PER_PAGE = 1_000;
const POSTS_PER_BATCH = 500;
/** Rows a statement deletes or writes at most: its parameters stay within every limit. */
const ROWS_PER_STATEMENT = 1_000;

interface PostTagRow {
  post_id: string;
  slug: string;
  position: number;
}

/**
 * What to change so that each post keeps each new slug once, at its first position: the rows to
 * delete (`[post_id, slug]`), and the rows to write again after them with their new slug.
 */
function rewriteOf(rows: readonly PostTagRow[]): { gone: string[][]; written: unknown[][] } {
  const gone: string[][] = [];
  const written: unknown[][] = [];
  const kept = new Set<string>();
  const ordered = [...rows].sort(
    (a, b) =>
      (a.post_id < b.post_id ? -1 : a.post_id > b.post_id ? 1 : 0) ||
      Number(a.position) - Number(b.position),
  );
  for (const { post_id: postId, slug, position } of ordered) {
    const to = tagSlug(slug);
    const key = `${postId}\u0000${to}`;
    const keep = to !== '' && !kept.has(key);
    if (keep) kept.add(key);
    if (keep && to === slug) continue;
    gone.push([postId, slug]);
    if (keep) written.push([postId, to, position]);
  }
  return { gone, written };
}

/** Stored tags read with the slug rule that drops invisible letters and piles of marks. */
export class RewriteTagSlugs1765003000000 implements MigrationInterface {
  name = 'RewriteTagSlugs1765003000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await liftStatementTimeout(queryRunner);
    const $ = placeholders(queryRunner);
    let after: string | null = null;
    for (;;) {
      const page: { slug: string }[] = await queryRunner.query(
        'SELECT DISTINCT slug FROM post_tags ' +
          `${after === null ? '' : `WHERE slug > ${$(1)} `}ORDER BY slug LIMIT ${SLUGS_PER_PAGE}`,
        after === null ? [] : [after],
      );
      if (page.length === 0) return;
      const changed = page.map((row) => row.slug).filter((slug) => tagSlug(slug) !== slug);
      if (changed.length > 0) await this.rewritePostsWith(queryRunner, changed);
      after = page[page.length - 1].slug;
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: see above.
  }

  /**
   * Rewrites the tags of every post that has one of `slugs`, a batch of posts at a time. The
   * posts are all found first (one pass of the slug index), so that no batch reads the others'.
   */
  private async rewritePostsWith(queryRunner: QueryRunner, slugs: string[]): Promise<void> {
    const $ = placeholders(queryRunner);
    const list = (count: number) => Array.from({ length: count }, (_, i) => $(i + 1)).join(', ');
    const posts: { post_id: string }[] = await queryRunner.query(
      `SELECT DISTINCT post_id FROM post_tags WHERE slug IN (${list(slugs.length)})`,
      slugs,
    );
    for (let start = 0; start < posts.length; start += POSTS_PER_BATCH) {
      const postIds = posts.slice(start, start + POSTS_PER_BATCH).map((row) => row.post_id);
      const rows: PostTagRow[] = await queryRunner.query(
        `SELECT post_id, slug, position FROM post_tags WHERE post_id IN (${list(postIds.length)})`,
        postIds,
      );
      const { gone, written } = rewriteOf(rows);
      // Deletes first: a row written again may take the slug of a later duplicate it replaces.
      for (const chunk of chunks(gone)) {
        await queryRunner.query(
          `DELETE FROM post_tags WHERE (post_id, slug) IN (VALUES ${tuples($, chunk)})`,
          chunk.flat(),
        );
      }
      for (const chunk of chunks(written)) {
        await queryRunner.query(
          `INSERT INTO post_tags (post_id, slug, position) VALUES ${tuples($, chunk)}`,
          chunk.flat(),
        );
      }
    }
  }
}

/** The `n`th (from 1) parameter of a statement, as this database writes it. */
function placeholders(queryRunner: QueryRunner): (n: number) => string {
  const postgres = queryRunner.connection.driver.options.type === 'postgres';
  return (n) => (postgres ? `$${n}` : '?');
}

/** `(?, ?), (?, ?)`: one parenthesised tuple of parameters per row. */
function tuples($: (n: number) => string, rows: readonly unknown[][]): string {
  let n = 0;
  return rows.map((row) => `(${row.map(() => $((n += 1))).join(', ')})`).join(', ');
}

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    yield rows.slice(start, start + ROWS_PER_STATEMENT);
  }
}
