import { Injectable, Optional } from '@nestjs/common';

import { followsSql } from './follows.sql';
import { badUserInput, notFound, unauthenticated } from '../common/errors';
import { countsByKey, PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { NotificationsService } from '../notifications/notifications.service';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';

/** Who follows whom. For the host's own code. */
@Injectable()
export class FollowsService {
  private readonly statements: PreparedStatements<typeof followsSql>;

  constructor(
    private readonly users: UsersService,
    private readonly sql: Sql,
    @Optional() private readonly notifications?: NotificationsService,
  ) {
    this.statements = sql.prepare(followsSql);
  }

  /** The viewer follows `userId`; following twice leaves one follow. */
  async follow(userId: string, viewer: Viewer): Promise<User> {
    const { followee, followerId } = await this.findFollowee(userId, viewer);
    const follow = { followerId, followeeId: userId, createdAt: new Date() };
    const followed = async (sql: SqlRunner) => (await sql.run(this.statements.follow, follow)) > 0;
    await (this.notifications?.followed(userId, followerId, followed) ?? followed(this.sql));
    return followee;
  }

  async unfollow(userId: string, viewer: Viewer): Promise<User> {
    const { followee, followerId } = await this.findFollowee(userId, viewer);
    const unfollow = { followerId, followeeId: userId };
    const unfollowed = async (sql: SqlRunner) =>
      (await sql.run(this.statements.unfollow, unfollow)) > 0;
    await (this.notifications?.unfollowed(userId, followerId, unfollowed) ?? unfollowed(this.sql));
    return followee;
  }

  async followsAnyone(userId: string): Promise<boolean> {
    return (await this.sql.one(this.statements.followsAnyone, { followerId: userId })) !== null;
  }

  async countFollowers(userIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countFollowers, { userIds }));
  }

  async countFollowing(userIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.countFollowing, { userIds }));
  }

  /** The users among `userIds` that `followerId` follows. */
  async followedBy(followerId: string, userIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql.all(this.statements.followedBy, { followerId, userIds });
    return new Set(rows.map((row) => row.key));
  }

  private async findFollowee(userId: string, viewer: Viewer) {
    if (!viewer) throw unauthenticated('You must be signed in to follow someone.');
    if (userId === viewer.id) throw badUserInput('You cannot follow yourself.', 'userId');
    const followee = await this.users.findById(userId);
    if (!followee) throw notFound('User');
    return { followee, followerId: viewer.id };
  }
}
