import { ResolveField, Resolver } from '@nestjs/graphql';

import { PostSearchConnection, PostSearchEdge } from './dto/post-search-connection.type';
import { SearchQuery } from './search-query';
import { snippetOfPost } from './snippet';
import { BlogContext } from '../blog-context';
import { chargedText } from '../common/response-size';

/** An edge as `searchPosts` resolves it: its snippet is made from the query when asked for. */
export type ResolvedSearchEdge = Omit<PostSearchEdge, 'snippet'> & { query: SearchQuery };

/** A page of search results as `searchPosts` resolves it. */
export type ResolvedSearchConnection = Omit<PostSearchConnection, 'edges'> & {
  edges: ResolvedSearchEdge[];
};

/** The fields of a search result that are made when selected. */
@Resolver(() => PostSearchEdge)
export class PostSearchEdgeResolver {
  /**
   * Made only when selected, and charged to the answer's budget as it is made (see
   * RequestScope): once an answer has passed the budget, no more snippets are made.
   */
  @ResolveField(() => String)
  snippet(edge: ResolvedSearchEdge, _args: unknown, context: BlogContext): string {
    context.scope?.throwIfStopped();
    return chargedText(snippetOfPost(edge.node, edge.query), context);
  }
}
