import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: "A type of the host application's own, served beside the blog's." })
export class Greeting {
  @Field()
  message: string;
}
