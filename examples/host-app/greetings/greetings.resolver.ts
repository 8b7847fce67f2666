import { Args, Query, Resolver } from '@nestjs/graphql';

import { Greeting } from './greeting.model';

@Resolver(() => Greeting)
export class GreetingsResolver {
  @Query(() => Greeting, { description: 'Says hello; the host app owns this field.' })
  greeting(@Args('name', { defaultValue: 'world' }) name: string): Greeting {
    return { message: `Hello, ${name}!` };
  }
}
