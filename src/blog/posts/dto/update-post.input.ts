import { InputType, PartialType, PickType } from '@nestjs/graphql';

import { CreatePostInput } from './create-post.input';

/** The fields to change, with the rules of a new post; those left out stay as they are. */
@InputType()
export class UpdatePostInput extends PartialType(
  PickType(CreatePostInput, ['title', 'content'] as const),
) {}
