import { ResolveField, Resolver } from '@nestjs/graphql';

import { PostSearchConnection, PostSearchEdge } from './dto/post-search-connection.type';
import { SearchQuery } from './search-query';
import { snippetOfPost } from './snippet';
import { BlogContext } from '../blog-context';
import { chargedText } from '../common/response-size';
import { TurnSlices } from '../common/turn-slices';

/**
 * An edge as `searchPosts` resolves it: its snippet is made from the query when asked for, of
 * `text`, the part of the post's text that the index read (see SearchHit).
 */
export type ResolvedSearchEdge = Omit<PostSearchEdge, 'snippet'> & {
  query: SearchQuery;
  text: string;
};

/** A page of search results as `searchPosts` resolves it. */
export type ResolvedSearchConnection = Omit<PostSearchConnection, 'edges'> & {
  edges: ResolvedSearchEdge[];
};

/**
 * Snippets one operation makes in a turn of the event loop: a page of 20 hits never waits, and
 * 3 aliased pages of 100 (about 20 ms of work) leave room for other clients between slices.
 */
export const SNIPPETS_PER_TURN = 25;

/** The fields of a search result that are made when selected. */
@Resolver(() => PostSearchEdge)
export class PostSearchEdgeResolver {
  /** Each operation's snippets, a slice a turn (keyed by its scope, or its context). */
  private readonly slices = new WeakMap<object, TurnSlices>();

  /**
   * Made only when selected, and charged to the answer's budget as it is made (see
   * RequestScope): once an answer has passed the budget, no more snippets are made. An
   * operation makes {@link SNIPPETS_PER_TURN} in a turn of the event loop, the rest in later
   * turns.
   */
  @ResolveField(() => String)
  snippet(
    edge: ResolvedSearchEdge,
    _args: unknown,
    context: BlogContext,
  ): string | Promise<string> {
    const key = context.scope ?? context;
    let slices = this.slices.get(key);
    if (!slices) this.slices.set(key, (slices = new TurnSlices(SNIPPETS_PER_TURN)));
    return slices.run(() => {
      context.scope?.throwIfStopped();
      const post = { title: edge.node.title, content: edge.text };
      return chargedText(snippetOfPost(post, edge.query), context);
    });
  }
}
