import { ArgsType, Field, ID } from '@nestjs/graphql';

import { PageArgs } from '../../common/pagination';

@ArgsType()
export class PostsArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Only the posts of this author.' })
  authorId?: string | null;
}
