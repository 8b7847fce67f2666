import { Field, Float, ObjectType } from '@nestjs/graphql';

import { textFieldCost } from '../../common/response-size';
import { PageInfo } from '../../posts/dto/post-connection.type';
import { Post } from '../../posts/post.entity';
import { MAX_SNIPPET_LENGTH, SNIPPET_CHARACTERS, SNIPPET_WORDS } from '../snippet';

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

  /** Made when selected (see PostSearchEdgeResolver), priced and charged as a text of its length. */
  @Field({
    complexity: textFieldCost(MAX_SNIPPET_LENGTH),
    description:
      `At most ${SNIPPET_WORDS} words and ${SNIPPET_CHARACTERS} characters of the plain text of the ` +
      'content around the matched words (of the title when the text does not match), never its ' +
      'Markdown, as HTML: matched words in <mark></mark>, everything else escaped, and … where the ' +
      `text goes on (a longer word is cut). At most ${MAX_SNIPPET_LENGTH} characters of HTML.`,
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
