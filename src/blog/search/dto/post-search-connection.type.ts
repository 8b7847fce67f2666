import { Field, Float, ObjectType } from '@nestjs/graphql';

import { PageInfo } from '../../posts/dto/post-connection.type';
import { Post } from '../../posts/post.entity';

@ObjectType({ description: 'A post that searchPosts found, with how well and where it matched.' })
export class PostSearchEdge {
  @Field(() => Post)
  node: Post;

  @Field(() => Float, {
    description:
      'How relevant the post is to the query: higher is more relevant. Compare ranks within one ' +
      'search only; their scale depends on the database.',
  })
  rank: number;

  @Field({
    description:
      'About 24 words of the content around the matched words (of the title when the content ' +
      'does not match), as HTML: matched words in <mark></mark>, everything else escaped.',
  })
  snippet: string;

  @Field()
  cursor: string;
}

@ObjectType({
  description: 'A Relay-style page of published posts that match a search, most relevant first.',
})
export class PostSearchConnection {
  @Field(() => [PostSearchEdge])
  edges: PostSearchEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;
}
