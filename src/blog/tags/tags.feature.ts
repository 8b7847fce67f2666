import { TagsWriter } from './post-tags.writer';
import { PostTagsResolver, TagsResolver } from './tags.resolver';
import { TagsService } from './tags.service';
import { BlogFeature } from '../blog-feature';
import { PostTagsWriter } from '../posts/post-tags-writer';

/** Tags: up to five per post, lists of posts filtered by them, and tags by popularity. */
export const tagsFeature: BlogFeature = {
  name: 'tags',
  providers: [
    TagsService,
    TagsWriter,
    { provide: PostTagsWriter, useExisting: TagsWriter },
    PostTagsResolver,
    TagsResolver,
  ],
  schema: {
    types: ['Tag', 'TagConnection', 'TagEdge'],
    fields: [
      'Post.tags',
      'Query.tag',
      'Query.popularTags',
      'CreatePostInput.tags',
      'UpdatePostInput.tags',
    ],
    arguments: [
      'Query.posts(tags:)',
      'Query.postsConnection(tags:)',
      'Query.searchPosts(tags:)',
      'Mutation.createPost(tags:)',
    ],
  },
};
