import { applyDecorators } from '@nestjs/common';
import { Field, InputType } from '@nestjs/graphql';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

import { IsVisibleLine, IsVisibleText, Trim } from '../../common/validation';

export const TITLE_LENGTH = { min: 1, max: 200 };
export const CONTENT_LENGTH = { min: 1, max: 50_000 };

/** A post title: trimmed, then 1-200 characters of one line, some of them visible. */
export const IsPostTitle = () =>
  applyDecorators(Trim(), IsString(), Length(TITLE_LENGTH.min, TITLE_LENGTH.max), IsVisibleLine());

/**
 * Post content: trimmed, then 1-50,000 characters, some of them visible, with no control
 * character but tab and line breaks; stored as given (no HTML stripping).
 */
export const IsPostContent = () =>
  applyDecorators(
    Trim(),
    IsString(),
    Length(CONTENT_LENGTH.min, CONTENT_LENGTH.max),
    IsVisibleText(),
  );

@InputType()
export class CreatePostInput {
  @Field()
  @IsPostTitle()
  title: string;

  @Field()
  @IsPostContent()
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
