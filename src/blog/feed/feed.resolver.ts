import { Args, Query, Resolver } from '@nestjs/graphql';

import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { FeedService } from './feed.service';
import { PageArgs, toPage } from '../common/pagination';
import { Post } from '../posts/post.entity';
import { Viewer } from '../users/viewer';

@Resolver()
@BlogResolverEnhancers()
export class FeedResolver {
  constructor(private readonly feedService: FeedService) {}

  @Query(() => [Post], {
    description:
      'Published posts by the authors the viewer follows and by the viewer, newest first;\n' +
      'every published post when the viewer is anonymous or follows no one.',
  })
  async feed(
    @Args() args: PageArgs,
    @CurrentViewer() viewer: Viewer,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Post[]> {
    return loaders.knownPosts(await this.feedService.feed(viewer, toPage(args)));
  }
}
