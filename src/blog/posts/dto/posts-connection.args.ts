import { ArgsType, Field, ID } from '@nestjs/graphql';

import { TAGS_FILTER_DESCRIPTION } from './create-post.input';
import { ConnectionArgs } from '../../common/pagination';

@ArgsType()
export class PostsConnectionArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Only the posts of this author.' })
  authorId?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: TAGS_FILTER_DESCRIPTION,
  })
  tags?: string[] | null;
}
