import { ArgsType, Field } from '@nestjs/graphql';

import { ConnectionArgs } from '../../common/pagination';
import { CommentOrder } from '../comment-status';

/** `first`, `after` and the order of a post's threads. */
@ArgsType()
export class CommentsConnectionArgs extends ConnectionArgs {
  @Field(() => CommentOrder, { nullable: true, defaultValue: CommentOrder.OLDEST })
  order?: CommentOrder | null;
}
