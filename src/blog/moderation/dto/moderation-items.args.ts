import { ArgsType, Field } from '@nestjs/graphql';

import { ConnectionArgs } from '../../common/pagination';
import { ReportStatus } from '../reports.enums';

/** `first`, `after` and the status of a page of the moderation queue. */
@ArgsType()
export class ModerationItemsArgs extends ConnectionArgs {
  @Field(() => ReportStatus, {
    nullable: true,
    defaultValue: ReportStatus.OPEN,
    description: 'OPEN: oldest first. RESOLVED: the most recently resolved first.',
  })
  status?: ReportStatus | null;
}
