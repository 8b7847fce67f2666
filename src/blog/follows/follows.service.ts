import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { badUserInput, notFound, unauthenticated } from '../common/errors';
import { countsByKey, Sql } from '../common/sql';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';
import { Follow } from './follow.entity';

function statements(sql: Sql) {
  const count = (key: string) =>
    sql.statement(
      `SELECT f.${key} AS key, COUNT(*) AS count FROM follows f WHERE f.${key} IN (??) GROUP BY f.${key}`,
    );
  return {
    followers: count('followee_id'),
    following: count('follower_id'),
    followedBy: sql.statement(
      'SELECT f.followee_id AS key FROM follows f WHERE f.follower_id = ? AND f.followee_id IN (??)',
    ),
    followsAnyone: sql.statement('SELECT 1 AS yes FROM follows f WHERE f.follower_id = ? LIMIT 1'),
  };
}

@Injectable()
export class FollowsService {
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    @InjectRepository(Follow) private readonly follows: Repository<Follow>,
    private readonly users: UsersService,
    private readonly sql: Sql,
  ) {
    this.statements = statements(sql);
  }

  /** The viewer follows `userId`; following twice leaves one follow. */
  async follow(userId: string, viewer: Viewer): Promise<User> {
    const { followee, followerId } = await this.findFollowee(userId, viewer);
    await this.follows
      .createQueryBuilder()
      .insert()
      .values({ followerId, followeeId: userId, createdAt: new Date() })
      .orIgnore()
      .execute();
    return followee;
  }

  async unfollow(userId: string, viewer: Viewer): Promise<User> {
    const { followee, followerId } = await this.findFollowee(userId, viewer);
    await this.follows.delete({ followerId, followeeId: userId });
    return followee;
  }

  async followsAnyone(userId: string): Promise<boolean> {
    return (await this.sql.one(this.statements.followsAnyone, [userId])) !== null;
  }

  async countFollowers(userIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.followers, [this.sql.keys(userIds)]));
  }

  async countFollowing(userIds: readonly string[]): Promise<Map<string, number>> {
    return countsByKey(await this.sql.all(this.statements.following, [this.sql.keys(userIds)]));
  }

  /** The users among `userIds` that `followerId` follows. */
  async followedBy(followerId: string, userIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql.all<{ key: string }>(this.statements.followedBy, [
      followerId,
      this.sql.keys(userIds),
    ]);
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
