import { Args, Extensions, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';

import { Loaders, loadersOf } from '../auth/viewer.decorator';
import { BlogContext } from '../blog-context';
import { BlogLoaders } from '../blog-loaders';
import { BlogResolverEnhancers } from '../blog-resolver.decorator';
import { ConnectionArgs, encodeCursor, toConnectionPage, toPage } from '../common/pagination';
import { expensive, TAG_POSTS_WORK } from '../limits/expensive-fields';
import { PostConnection } from '../posts/dto/post-connection.type';
import { Post } from '../posts/post.entity';
import type { ResolvedPostConnection } from '../posts/posts.resolver';
import { TagConnection } from './dto/tag-connection.type';
import { Tag } from './dto/tag.type';
import { decodeTagCursor, encodeTagCursor } from './tag-cursor';
import { tagSlugs } from './tag-slug';
import { tagsLoaders } from './tags.loaders';
import { TagsService } from './tags.service';

/** The tags of a post. */
@Resolver(() => Post)
@BlogResolverEnhancers()
export class PostTagsResolver {
  constructor(private readonly tagsService: TagsService) {}

  @ResolveField(() => [String], { description: "The post's tags (slugs), in their order." })
  tags(post: Post, _args: unknown, context: BlogContext): Promise<string[]> {
    return tagsLoaders(loadersOf(context), this.tagsService).tagsByPost.load(post.id);
  }
}

/** Tags and their published posts. */
@Resolver(() => Tag)
@BlogResolverEnhancers()
export class TagsResolver {
  constructor(private readonly tagsService: TagsService) {}

  @Query(() => Tag, {
    nullable: true,
    description: 'A tag, its slug read as tags are written; null when no published post has it.',
  })
  async tag(@Args('slug') slug: string, @Loaders() loaders: BlogLoaders): Promise<Tag | null> {
    const [normalised] = tagSlugs([slug], 'slug');
    const count = await tagsLoaders(loaders, this.tagsService).postsCountByTag.load(normalised);
    return count > 0 ? { slug: normalised } : null;
  }

  @Query(() => TagConnection, {
    description:
      'Tags by their number of published posts, most first, then by slug; tags of drafts only do not appear.',
  })
  async popularTags(
    @Args() args: ConnectionArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<TagConnection> {
    const { first } = toPage({ first: args.first });
    const after = args.after ? decodeTagCursor(args.after) : null;
    const found = await this.tagsService.popular(first + 1, after);
    const counts = tagsLoaders(loaders, this.tagsService).postsCountByTag;
    const edges = found.slice(0, first).map((tag) => {
      counts.prime(tag.slug, tag.count);
      return { cursor: encodeTagCursor(tag), node: { slug: tag.slug } };
    });
    return {
      edges,
      pageInfo: { hasNextPage: found.length > first, endCursor: edges.at(-1)?.cursor ?? null },
    };
  }

  @ResolveField(() => Int, { description: 'How many published posts have the tag.' })
  postsCount(tag: Tag, _args: unknown, context: BlogContext): Promise<number> {
    return tagsLoaders(loadersOf(context), this.tagsService).postsCountByTag.load(tag.slug);
  }

  @ResolveField(() => PostConnection, {
    description: 'Published posts with the tag, newest first; `after` takes an endCursor.',
  })
  // Its newest posts are found among all of the tag's published posts, for each tag of a page:
  // about 1 ms a tag of 50,000 posts, a tenth of what a search ranks, and priced so.
  @Extensions(expensive(() => TAG_POSTS_WORK))
  async posts(
    @Parent() tag: Tag,
    @Args() args: ConnectionArgs,
    @Loaders() loaders: BlogLoaders,
  ): Promise<ResolvedPostConnection> {
    const page = toConnectionPage(args);
    const tagLoaders = tagsLoaders(loaders, this.tagsService);
    const posts = await tagLoaders.postsByTag
      .for({ ...page, first: page.first + 1 })
      .load(tag.slug);
    const edges = posts.slice(0, page.first).map((node) => ({ cursor: encodeCursor(node), node }));
    return {
      edges,
      pageInfo: { hasNextPage: posts.length > page.first, endCursor: edges.at(-1)?.cursor ?? null },
      authorId: null,
      countAll: () => tagLoaders.postsCountByTag.load(tag.slug),
    };
  }
}
