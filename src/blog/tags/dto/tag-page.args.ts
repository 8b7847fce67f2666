import { ArgsType, Field, Int } from '@nestjs/graphql';

import { DEFAULT_PAGE_SIZE } from '../../common/pagination';

/** `first` and `after` of a Relay page: `after` takes the endCursor of the previous page. */
@ArgsType()
export class TagPageArgs {
  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;
}
