import { FollowsService } from './follows.service';
import { newId } from '../common/uuid';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

describe('FollowsService', () => {
  let blog: BlogTestingModule;
  let follows: FollowsService;
  let ada: User;
  let bob: User;

  beforeEach(async () => {
    blog = await createBlogTestingModule([FollowsService, UsersService]);
    follows = blog.moduleRef.get(FollowsService);
    [ada, bob] = [await blog.signUp(), await blog.signUp()];
  });

  afterEach(() => blog.close());

  it('should follow once, however often asked, and count both sides', async () => {
    expect((await follows.follow(bob.id, ada)).id).toBe(bob.id);
    await follows.follow(bob.id, ada);
    expect((await follows.countFollowers([bob.id, ada.id])).get(bob.id)).toBe(1);
    expect((await follows.countFollowers([ada.id])).get(ada.id) ?? 0).toBe(0);
    expect((await follows.countFollowing([ada.id])).get(ada.id)).toBe(1);
    expect(await follows.followedBy(ada.id, [bob.id, ada.id])).toEqual(new Set([bob.id]));
    expect(await follows.followsAnyone(ada.id)).toBe(true);
    expect(await follows.followsAnyone(bob.id)).toBe(false);
  });

  it('should unfollow, and change nothing when there was no follow', async () => {
    await follows.follow(bob.id, ada);
    expect((await follows.unfollow(bob.id, ada)).id).toBe(bob.id);
    expect((await follows.unfollow(bob.id, ada)).id).toBe(bob.id);
    expect(await follows.followsAnyone(ada.id)).toBe(false);
  });

  it('should refuse to follow oneself with BAD_USER_INPUT on userId', async () => {
    expect(await refusalOf(follows.follow(ada.id, ada))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'userId',
    });
    expect(await follows.followsAnyone(ada.id)).toBe(false);
  });

  it('should refuse an anonymous viewer and a missing user', async () => {
    expect(await refusalOf(follows.follow(bob.id, null))).toEqual({ code: 'UNAUTHENTICATED' });
    expect(await refusalOf(follows.unfollow(bob.id, null))).toEqual({ code: 'UNAUTHENTICATED' });
    expect(await refusalOf(follows.follow(newId(), ada))).toEqual({ code: 'NOT_FOUND' });
  });
});
