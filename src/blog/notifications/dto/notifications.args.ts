import { ArgsType, Field, Int } from '@nestjs/graphql';

import { DEFAULT_PAGE_SIZE } from '../../common/pagination';

@ArgsType()
export class NotificationsArgs {
  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Only the notifications not yet marked read.',
  })
  unreadOnly?: boolean | null;
}
