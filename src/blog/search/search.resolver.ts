import { Args, Extensions, Query, Resolver } from '@nestjs/graphql';

import { PostSearchConnection } from './dto/post-search-connection.type';
import { SearchPostsArgs } from './dto/search-posts.args';
import { ResolvedSearchConnection, ResolvedSearchEdge } from './post-search-edge.resolver';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor';
import { parseSearchQuery } from './search-query';
import { DEFAULT_SEARCH_RANK_WINDOW, SearchService } from './search.service';
import { Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { toPage } from '../common/pagination';
import { expensive } from '../limits/expensive-fields';
import { tagSlugs } from '../tags/tag-slug';

@Resolver()
@BlogResolverEnhancers()
export class SearchResolver {
  constructor(private readonly searchService: SearchService) {}

  @Query(() => PostSearchConnection, {
    description:
      'Full-text search of published posts, in their titles and the plain text of their content ' +
      '(`contentText`, not the Markdown): most relevant first (a match in the title counts more), ' +
      'ties newest first. Only the most recently written matches are ranked and listed, 1,000 ' +
      'unless the service says otherwise.',
  })
  // Ranks up to its window of matches whatever the page's size.
  @Extensions(expensive((_, options) => options.searchRankWindow ?? DEFAULT_SEARCH_RANK_WINDOW))
  async searchPosts(
    @Args() args: SearchPostsArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<ResolvedSearchConnection> {
    const query = parseSearchQuery(args.query);
    const { first } = toPage({ first: args.first });
    const after = args.after ? decodeSearchCursor(args.after) : null;
    const tags = args.tags ? tagSlugs(args.tags) : [];
    const { hits, hasNextPage } = await this.searchService.search(query, { first, after, tags });
    loaders.knownPosts(hits.map(({ post }) => post));
    const edges: ResolvedSearchEdge[] = hits.map(({ post, rank, text }) => ({
      node: post,
      rank,
      query,
      text,
      cursor: encodeSearchCursor({ rank, publishedAt: post.publishedAt as Date, id: post.id }),
    }));
    return { edges, pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } };
  }
}
