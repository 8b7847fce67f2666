import { ArgsType, Field, ID } from '@nestjs/graphql';

import { ReportAction } from '../reports.enums';

/** The arguments of resolveReport. */
@ArgsType()
export class ReportResolutionArgs {
  @Field(() => ID, { description: 'The id of the moderation item.' })
  id: string;

  @Field(() => ReportAction)
  action: ReportAction;
}
