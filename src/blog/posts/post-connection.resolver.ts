import { Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';

import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { PostConnection } from './dto/post-connection.type';
import type { ResolvedPostConnection } from './posts.resolver';
import { PostsService } from './posts.service';

@Resolver(() => PostConnection)
export class PostConnectionResolver {
  constructor(private readonly postsService: PostsService) {}

  @ResolveField(() => Int, {
    description: 'All published posts that match, on every page.',
    complexity: COUNT_COMPLEXITY,
  })
  totalCount(@Parent() connection: ResolvedPostConnection): Promise<number> {
    return connection.countAll?.() ?? this.postsService.countPublished(connection.authorId);
  }
}
