import { CreateUsersAndPosts1763740800000 } from './1763740800000-create-users-and-posts';
import { CreateCommentsLikesFollows1763827200000 } from './1763827200000-create-comments-likes-follows';
import { AddUserTokenVersion1764288000000 } from './1764288000000-add-user-token-version';
import { CreatePostTags1765000000000 } from './1765000000000-create-post-tags';
import { CreatePostSearch1765000100000 } from './1765000100000-create-post-search';
import { CreateNotifications1765000200000 } from './1765000200000-create-notifications';
import { CreateBookmarks1765000300000 } from './1765000300000-create-bookmarks';
import { FoldPostSearchText1765000400000 } from './1765000400000-fold-post-search-text';
import { KeepPostSearchInline1765000500000 } from './1765000500000-keep-post-search-inline';
import { IndexNotificationsByActorAndPost1765000600000 } from './1765000600000-index-notifications-by-actor-and-post';
import { IndexPostSearchPrefixes1765000700000 } from './1765000700000-index-post-search-prefixes';
import { CreatePublicationFanOuts1765000800000 } from './1765000800000-create-publication-fan-outs';
import { DeferPostSearchIndexing1765000900000 } from './1765000900000-defer-post-search-indexing';
import { BoundPostSearchText1765000950000 } from './1765000950000-bound-post-search-text';
import { CreateTagCounts1765001000000 } from './1765001000000-create-tag-counts';
import { ChunkPublicationFanOuts1765002000000 } from './1765002000000-chunk-publication-fan-outs';
import { RewriteTagSlugs1765003000000 } from './1765003000000-rewrite-tag-slugs';
import { NormaliseAvatars1765004000000 } from './1765004000000-normalise-avatars';
import { PublishPosts1765005000000 } from './1765005000000-publish-posts';
import { SearchRenderedText1765006000000 } from './1765006000000-search-rendered-text';
import { UserRoles1765007000000 } from './1765007000000-user-roles';
import { CommentThreads1765007100000 } from './1765007100000-comment-threads';
import { Moderation1765007200000 } from './1765007200000-moderation';
import { CreateReports1765007300000 } from './1765007300000-create-reports';
import { CreateImages1765008000000 } from './1765008000000-create-images';
import { CreateWebhooks1765009000000 } from './1765009000000-create-webhooks';
import { AccountEmail1765010000000 } from './1765010000000-account-email';

/** Every migration in order; one list serves SQLite and PostgreSQL. */
export const migrations = [
  CreateUsersAndPosts1763740800000,
  CreateCommentsLikesFollows1763827200000,
  AddUserTokenVersion1764288000000,
  CreatePostTags1765000000000,
  CreatePostSearch1765000100000,
  CreateNotifications1765000200000,
  CreateBookmarks1765000300000,
  FoldPostSearchText1765000400000,
  KeepPostSearchInline1765000500000,
  IndexNotificationsByActorAndPost1765000600000,
  IndexPostSearchPrefixes1765000700000,
  CreatePublicationFanOuts1765000800000,
  DeferPostSearchIndexing1765000900000,
  BoundPostSearchText1765000950000,
  CreateTagCounts1765001000000,
  ChunkPublicationFanOuts1765002000000,
  RewriteTagSlugs1765003000000,
  NormaliseAvatars1765004000000,
  PublishPosts1765005000000,
  SearchRenderedText1765006000000,
  UserRoles1765007000000,
  CommentThreads1765007100000,
  Moderation1765007200000,
  CreateReports1765007300000,
  CreateImages1765008000000,
  CreateWebhooks1765009000000,
  AccountEmail1765010000000,
];
