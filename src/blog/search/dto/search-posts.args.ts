import { ArgsType, Field, Int } from '@nestjs/graphql';

import { DEFAULT_PAGE_SIZE } from '../../common/pagination';
import { TAGS_FILTER_DESCRIPTION } from '../../posts/dto/create-post.input';
import {
  MAX_QUERY_LENGTH,
  MAX_QUERY_PREFIXES,
  MAX_QUERY_TERMS,
  MAX_QUERY_WORDS,
} from '../search-query';

@ArgsType()
export class SearchPostsArgs {
  @Field({
    description:
      'What to find, as typed in a search box: words (all must match), "a phrase", -word or ' +
      `-"a phrase" to leave out, and the last word as a prefix while typing. At most ${MAX_QUERY_LENGTH} ` +
      `characters, ${MAX_QUERY_WORDS} words, ${MAX_QUERY_TERMS} terms (words and phrases) and ` +
      `${MAX_QUERY_PREFIXES} prefixes; a longer query is refused.`,
  })
  query: string;

  @Field(() => Int, { nullable: true, defaultValue: DEFAULT_PAGE_SIZE })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;

  @Field(() => [String], { nullable: true, description: TAGS_FILTER_DESCRIPTION })
  tags?: string[] | null;
}
