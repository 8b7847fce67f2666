import { Extensions, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';

import type { ResolvedPostConnection } from './posts.resolver';
import { PostsService } from './posts.service';
import { expensive, POSTS_SCAN_WORK } from '../limits/expensive-fields';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { PostConnection } from './dto/post-connection.type';

@Resolver(() => PostConnection)
export class PostConnectionResolver {
  constructor(private readonly postsService: PostsService) {}

  @ResolveField(() => Int, {
    description: 'All published posts that match, on every page.',
    complexity: COUNT_COMPLEXITY,
  })
  // postsConnection counts every published post, one author's or those with its tags; a tag's
  // count is kept (tags/tags.sql.ts), and the viewer's bookmarks are theirs alone.
  @Extensions(
    expensive(({ parent }) =>
      parent?.coordinate === 'Query.postsConnection' ? POSTS_SCAN_WORK : null,
    ),
  )
  totalCount(@Parent() connection: ResolvedPostConnection): Promise<number> {
    return connection.countAll?.() ?? this.postsService.countPublished(connection.authorId);
  }
}
