import { ArgsType, Field, ID, Int } from '@nestjs/graphql';

import { TAGS_FILTER_DESCRIPTION } from './create-post.input';
import { DEFAULT_PAGE_SIZE } from '../../common/pagination';

@ArgsType()
export class PostsConnectionArgs {
  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only the posts of this author.' })
  authorId?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: TAGS_FILTER_DESCRIPTION,
  })
  tags?: string[] | null;
}
