import { ArgsType, Field } from '@nestjs/graphql';

import { ConnectionArgs } from '../../common/pagination';

@ArgsType()
export class NotificationsArgs extends ConnectionArgs {
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Only the notifications not yet marked read.',
  })
  unreadOnly?: boolean | null;
}
