import { PostSearchEdgeResolver } from './post-search-edge.resolver';
import { SearchResolver } from './search.resolver';
import { SearchService } from './search.service';
import { BlogFeature } from '../blog-feature';

/** Full-text search of published posts, ranked, with snippets. */
export const searchFeature: BlogFeature = {
  name: 'search',
  providers: [SearchService, SearchResolver, PostSearchEdgeResolver],
  schema: {
    types: ['PostSearchConnection', 'PostSearchEdge'],
    fields: ['Query.searchPosts'],
  },
};
