import { Field, InputType } from '@nestjs/graphql';
import { IsString, MaxLength, MinLength } from 'class-validator';

@InputType()
export class ChangePasswordInput {
  @Field()
  @IsString()
  @MaxLength(1024)
  currentPassword: string;

  @Field({ description: 'At least 8 characters, as at sign-up.' })
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  newPassword: string;
}
