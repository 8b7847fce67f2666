import { Field, InputType } from '@nestjs/graphql';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { Trim } from '../../common/validation';

export const TITLE_LENGTH = { min: 1, max: 200 };
export const CONTENT_LENGTH = { min: 1, max: 50_000 };

@InputType()
export class CreatePostInput {
  @Field()
  @Trim()
  @IsString()
  @Length(TITLE_LENGTH.min, TITLE_LENGTH.max)
  title: string;

  @Field()
  @Trim()
  @IsString()
  @Length(CONTENT_LENGTH.min, CONTENT_LENGTH.max)
  content: string;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'False keeps the post as a draft.',
  })
  @IsOptional()
  @IsBoolean()
  publish?: boolean | null;
}
