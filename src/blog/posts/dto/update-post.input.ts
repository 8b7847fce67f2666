import { Field, InputType } from '@nestjs/graphql';
import { IsOptional } from 'class-validator';
import { IsPostContent, IsPostTitle } from './create-post.input';

/** The fields to change; those left out stay as they are. */
@InputType()
export class UpdatePostInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsPostTitle()
  title?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsPostContent()
  content?: string | null;
}
