import { Field, InputType, PartialType, PickType } from '@nestjs/graphql';

import { CreatePostInput, IsTagList, TAGS_INPUT_DESCRIPTION } from './create-post.input';

/** The fields to change, with the rules of a new post; those left out stay as they are. */
@InputType()
export class UpdatePostInput extends PartialType(
  PickType(CreatePostInput, ['title', 'content'] as const),
) {
  @Field(() => [String], {
    nullable: true,
    description: `${TAGS_INPUT_DESCRIPTION} Replaces all of the post's tags; [] removes them, leaving it out keeps them.`,
  })
  @IsTagList()
  tags?: string[] | null;
}
