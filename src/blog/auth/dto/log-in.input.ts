import { Field, InputType } from '@nestjs/graphql';
import { IsString, MaxLength } from 'class-validator';

import { CanonicalIdentifier } from '../../users/user-identifiers';

@InputType()
export class LogInInput {
  @Field()
  @CanonicalIdentifier()
  @IsString()
  @MaxLength(254)
  email: string;

  @Field()
  @IsString()
  @MaxLength(1024)
  password: string;
}
