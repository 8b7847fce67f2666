import { CreateUsersAndPosts1763740800000 } from './1763740800000-create-users-and-posts';
import { CreateCommentsLikesFollows1763827200000 } from './1763827200000-create-comments-likes-follows';

/** Every migration in order; one list serves SQLite and PostgreSQL. */
export const migrations = [
  CreateUsersAndPosts1763740800000,
  CreateCommentsLikesFollows1763827200000,
];
