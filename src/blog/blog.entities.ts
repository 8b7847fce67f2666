import { Post } from './posts/post.entity';
import { User } from './users/user.entity';

/** The entity classes BlogModule registers; a host's TypeORM root must know them. */
export const blogEntities = [User, Post];
