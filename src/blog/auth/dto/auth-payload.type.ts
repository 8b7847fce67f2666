import { Field, ObjectType } from '@nestjs/graphql';

import { User } from '../../users/user.entity';

@ObjectType()
export class AuthPayload {
  @Field({
    description: 'A JWT to send as `authorization: Bearer <token>` (a bare token is accepted too).',
  })
  token: string;

  @Field()
  expiresAt: Date;

  @Field(() => User)
  user: User;
}
