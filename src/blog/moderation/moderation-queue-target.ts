import { createUnionType } from '@nestjs/graphql';

import { Comment } from '../comments/comment.entity';
import { Post } from '../posts/post.entity';

/** What a moderation item is about: `... on Post` or `... on Comment`. */
export const ModerationTarget = createUnionType({
  name: 'ModerationTarget',
  description: 'What was reported: a post or a comment.',
  types: () => [Post, Comment] as const,
  resolveType: (value: Post | Comment) => (value instanceof Comment ? Comment : Post),
});
