import { Field, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { Image } from '../image.entity';

@ObjectType()
export class ImageEdge {
  @Field()
  cursor: string;

  @Field(() => Image)
  node: Image;
}

@ObjectType({ description: "A Relay-style page of the viewer's images, newest first." })
export class ImageConnection {
  @Field(() => [ImageEdge])
  edges: ImageEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  /** The owner whose images are counted; `totalCount` is resolved only when selected. */
  ownerId: string;
}
