import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { Viewer } from '../common/blog-context';
import { badUserInput, notFound, unauthenticated } from '../common/errors';
import { countGroupedBy } from '../common/grouped-queries';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Follow } from './follow.entity';

@Injectable()
export class FollowsService {
  constructor(
    @InjectRepository(Follow) private readonly follows: Repository<Follow>,
    private readonly users: UsersService,
  ) {}

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
    return this.follows.existsBy({ followerId: userId });
  }

  countFollowers(userIds: readonly string[]): Promise<Map<string, number>> {
    return countGroupedBy(this.follows, 'followeeId', userIds);
  }

  countFollowing(userIds: readonly string[]): Promise<Map<string, number>> {
    return countGroupedBy(this.follows, 'followerId', userIds);
  }

  /** The users among `userIds` that `followerId` follows. */
  async followedBy(followerId: string, userIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.follows.find({
      select: { followeeId: true },
      where: { followerId, followeeId: In([...userIds]) },
    });
    return new Set(rows.map((row) => row.followeeId));
  }

  private async findFollowee(userId: string, viewer: Viewer) {
    if (!viewer) throw unauthenticated('You must be signed in to follow someone.');
    if (userId === viewer.id) throw badUserInput('You cannot follow yourself.', 'userId');
    const followee = await this.users.findById(userId);
    if (!followee) throw notFound('User');
    return { followee, followerId: viewer.id };
  }
}
