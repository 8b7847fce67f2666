import { Field, InputType } from '@nestjs/graphql';
import { IsString, MaxLength } from 'class-validator';
import { Trim } from '../../common/validation';

@InputType()
export class LogInInput {
  @Field()
  @Trim()
  @IsString()
  @MaxLength(254)
  email: string;

  @Field()
  @IsString()
  @MaxLength(1024)
  password: string;
}
