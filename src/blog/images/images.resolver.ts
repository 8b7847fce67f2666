import { Args, ID, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';

import { ImageConnection } from './dto/image-connection.type';
import { decodeImageCursor, encodeImageCursor } from './image-cursor';
import { Image, ImageVariant } from './image.entity';
import { imageById } from './images.loaders';
import { ImagesService } from './images.service';
import { CurrentViewer, Loaders } from '../auth/viewer.decorator';
import { BlogLoaders } from '../blog-loaders';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { unauthenticated } from '../common/errors';
import { ConnectionArgs, toPage } from '../common/pagination';
import { COUNT_COMPLEXITY } from '../limits/operation-cost';
import { Viewer } from '../users/viewer';

/**
 * Uploaded images in the schema: `image(id)` for anyone (an image's URL is public, so its row
 * is too), the viewer's own `myImages`, changing an image's alternative text and deleting it
 * (its owner or an admin). Uploading is `POST /images`, outside GraphQL.
 */
@Resolver(() => Image)
@BlogResolverEnhancers()
export class ImagesResolver {
  constructor(private readonly images: ImagesService) {}

  @Query(() => Image, {
    nullable: true,
    description: 'An uploaded image by id, or null. Public, as its URL is.',
  })
  image(
    @Args('id', { type: () => ID }) id: string,
    @Loaders() loaders: BlogLoaders,
  ): Promise<Image | null> {
    return imageById(loaders, this.images).load(id);
  }

  @Query(() => ImageConnection, {
    description: "The viewer's uploaded images, newest first. Needs a signed-in user.",
  })
  async myImages(
    @Args() args: ConnectionArgs,
    @CurrentViewer() viewer: Viewer,
  ): Promise<ImageConnection> {
    if (!viewer) throw unauthenticated('You must be signed in to see your images.');
    const { first } = toPage({ first: args.first });
    const after = args.after ? decodeImageCursor(args.after) : null;
    const { images, hasNextPage } = await this.images.page(viewer.id, first, after);
    const edges = images.map((node) => ({ cursor: encodeImageCursor(node), node }));
    return {
      edges,
      pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
      ownerId: viewer.id,
    };
  }

  @BlogMutation(() => Image, {
    description:
      "Sets an image's alternative text; an empty one removes it. Its owner or an admin only.",
  })
  updateImageAlt(
    @Args('id', { type: () => ID }) id: string,
    @Args('alt') alt: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<Image> {
    return this.images.updateAlt(id, alt, viewer);
  }

  @BlogMutation(() => ID, {
    description:
      'Deletes an image and its files, and answers its id. Its owner or an admin only; an image in use (a cover, an avatar) is refused with CONFLICT, `extensions.usedBy` listing where.',
  })
  deleteImage(
    @Args('id', { type: () => ID }) id: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<string> {
    return this.images.deleteImage(id, viewer);
  }

  @ResolveField(() => String, { description: 'The absolute URL of the full-size file.' })
  url(@Parent() image: Image): string {
    return this.images.urlOf(image);
  }

  @ResolveField(() => [ImageVariant], {
    description:
      'Copies 320, 640, 1280 and 1920 pixels wide, those narrower than the image, in WebP and in its own format; narrowest first.',
  })
  variants(@Parent() image: Image): ImageVariant[] {
    return this.images.variantsOf(image);
  }
}

/** `totalCount` of the viewer's images. */
@Resolver(() => ImageConnection)
export class ImageConnectionResolver {
  constructor(private readonly images: ImagesService) {}

  @ResolveField(() => Int, {
    description: 'Every image of the viewer.',
    complexity: COUNT_COMPLEXITY,
  })
  totalCount(@Parent() connection: ImageConnection): Promise<number> {
    return this.images.count(connection.ownerId);
  }
}
