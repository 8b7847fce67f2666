import { CreateUsersAndPosts1763740800000 } from './1763740800000-create-users-and-posts';

/** Every migration in order; one list serves SQLite and PostgreSQL. */
export const migrations = [CreateUsersAndPosts1763740800000];
