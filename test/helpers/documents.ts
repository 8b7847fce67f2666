/** GraphQL documents shared by the e2e suites. */

export const CREATE_POST = `mutation ($input: CreatePostInput!) {
  createPost(input: $input) { id title content publishedAt }
}`;

export const PUBLISH_POST = `mutation ($id: ID!) { publishPost(id: $id) { id publishedAt } }`;
export const UPDATE_POST = `mutation ($id: ID!, $input: UpdatePostInput!) {
  updatePost(id: $id, input: $input) { id title content updatedAt }
}`;
export const DELETE_POST = `mutation ($id: ID!) { deletePost(id: $id) }`;
export const POST_BY_ID = `query ($id: ID!) { post(id: $id) { id title content publishedAt } }`;

export const ADD_COMMENT = `mutation ($postId: ID!, $text: String!) {
  addComment(postId: $postId, text: $text) { id text createdAt author { id } post { id } }
}`;
export const DELETE_COMMENT = `mutation ($id: ID!) { deleteComment(id: $id) }`;

export const LIKE_POST = `mutation ($postId: ID!) { likePost(postId: $postId) { id likesCount isLikedByMe } }`;
export const UNLIKE_POST = `mutation ($postId: ID!) { unlikePost(postId: $postId) { id likesCount isLikedByMe } }`;

export const FOLLOW_USER = `mutation ($userId: ID!) { followUser(userId: $userId) { id followersCount isFollowedByMe } }`;
export const UNFOLLOW_USER = `mutation ($userId: ID!) { unfollowUser(userId: $userId) { id followersCount isFollowedByMe } }`;

export const UPDATE_PROFILE = `mutation ($input: UpdateProfileInput!) {
  updateProfile(input: $input) { id name handle avatar }
}`;

/** The specification's client queries. */
export const FEED_QUERY = `{ feed(first: 20) { id content createdAt author { name handle avatar } likesCount isLikedByMe } }`;
export const POST_DETAIL_QUERY = `query ($id: ID!) {
  post(id: $id) { title content author { name avatar } comments { text createdAt } }
}`;
export const PROFILE_QUERY = `query ($id: ID!) { user(id: $id) { name posts { id title publishedAt } } }`;

export const MISSING_ID = '01900000-0000-7000-8000-000000000000';

/**
 * `{head} { ...F0 } }` where each of `levels` fragments spreads the next twice (posts and their
 * authors in turn): a small document that fans out to 2^levels selections.
 */
export function fragmentBomb(head: string, levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i % 2 === 0
      ? `fragment F${i} on Post { a: author { ...F${i + 1} } b: author { ...F${i + 1} } }`
      : `fragment F${i} on User { a: posts(first: 1) { ...F${i + 1} } b: posts(first: 1) { ...F${i + 1} } }`,
  );
  const last =
    levels % 2 === 0 ? `fragment F${levels} on Post { id }` : `fragment F${levels} on User { id }`;
  return `${head} { ...F0 } } ${fragments.join(' ')} ${last}`;
}
