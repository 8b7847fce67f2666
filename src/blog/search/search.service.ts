import { Inject, Injectable } from '@nestjs/common';

import { SearchCursor } from './search-cursor';
import { SearchQuery, toFts5Match, toTsIndexQuery, toTsQuery, toTsRankQuery } from './search-query';
import { SearchPageParameters, searchSql } from './search.sql';
import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { PreparedStatements, Sql } from '../common/sql';
import { PostSearchIndex } from '../posts/post-search-index';
import { Post } from '../posts/post.entity';
import { toPost } from '../posts/post.rows';

/** A post found and its rank (higher is more relevant); its snippet is made when asked for. */
export interface SearchHit {
  post: Post;
  rank: number;
  /** The part of the post's text that the index reads, which its snippet is cut from. */
  text: string;
}

export interface SearchPage {
  hits: SearchHit[];
  hasNextPage: boolean;
}

export interface SearchPageRequest {
  first: number;
  after: SearchCursor | null;
  /** Tag slugs, each once: only posts that have all of them. Empty: no filter. */
  tags: readonly string[];
}

/** How many matches a search ranks when the module's options do not say. */
export const DEFAULT_SEARCH_RANK_WINDOW = 1_000;

/**
 * Full-text search of published posts: one statement a page (on SQLite, in a transaction that
 * first indexes the posts not indexed yet: see PostSearchIndex).
 */
@Injectable()
export class SearchService {
  private readonly statements: PreparedStatements<typeof searchSql>;
  private readonly rankWindow: number;

  constructor(
    sql: Sql,
    private readonly index: PostSearchIndex,
    @Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions,
  ) {
    this.statements = sql.prepare(searchSql);
    this.rankWindow = options.searchRankWindow ?? DEFAULT_SEARCH_RANK_WINDOW;
    if (!Number.isSafeInteger(this.rankWindow) || this.rankWindow < 1) {
      throw new Error(
        `BlogModule searchRankWindow must be a whole number of at least 1, got ${String(this.rankWindow)}`,
      );
    }
  }

  /**
   * A page of the published posts that match `query`, most relevant first, ties newest first,
   * plus whether more follow. Only the `searchRankWindow` most recently written matches are
   * ranked and listed.
   */
  async search(query: SearchQuery, request: SearchPageRequest): Promise<SearchPage> {
    const { name, parameters } = searchPageStatement(query, request, this.rankWindow);
    const page = this.statements[name];
    const rows = await this.index.reading((sql) => sql.all(page, parameters));
    const hits = rows
      .slice(0, request.first)
      .map((row) => ({ post: toPost(row), rank: Number(row.rank), text: row.searchedText }));
    return { hits, hasNextPage: rows.length > request.first };
  }
}

/**
 * The statement of a page of `query` (its name in `searchSql`) and its parameters, as
 * {@link SearchService} sends them: one row more than the page, to tell whether more follow.
 */
export function searchPageStatement(
  query: SearchQuery,
  { first, after, tags }: SearchPageRequest,
  rankWindow: number,
): { name: keyof typeof searchSql; parameters: SearchPageParameters } {
  const parameters: SearchPageParameters = {
    match: toFts5Match(query),
    tsquery: toTsQuery(query),
    rankTsquery: toTsRankQuery(query),
    first: first + 1,
    rankWindow,
  };
  if (after) {
    Object.assign(parameters, {
      afterRank: after.rank,
      afterPublishedAt: after.publishedAt,
      afterId: after.id,
    });
  }
  if (tags.length > 0) Object.assign(parameters, { tags, tagCount: tags.length });
  const byPrefixes = toTsIndexQuery(query);
  if (byPrefixes) {
    Object.assign(parameters, {
      wordsTsquery: byPrefixes.words,
      prefixesTsquery: byPrefixes.prefixes,
    });
  }
  const name: keyof typeof searchSql = `page${byPrefixes ? 'ByPrefixes' : ''}${
    tags.length > 0 ? 'WithTags' : ''
  }${after ? 'After' : ''}`;
  return { name, parameters };
}
