import { canPublish, canPublishFor, isAdmin, isModerator, Role, roleOf, storedRole } from './roles';
import { User } from './user.entity';

const member = (role: Role, id = role.toLowerCase()) => ({ id, role }) as User;

describe('roles', () => {
  it.each([
    [Role.ADMIN, [true, true, true]],
    [Role.EDITOR, [false, true, true]],
    [Role.AUTHOR, [false, false, true]],
    [Role.CONTRIBUTOR, [false, false, false]],
  ])('should give %s isAdmin, isModerator and canPublish of %j', (role, expected) => {
    const viewer = member(role);
    expect([isAdmin(viewer), isModerator(viewer), canPublish(viewer)]).toEqual(expected);
  });

  it('should answer false for an anonymous viewer', () => {
    expect([isAdmin(null), isModerator(null), canPublish(null)]).toEqual([false, false, false]);
    expect(canPublishFor(null, { authorId: 'someone' })).toBe(false);
  });

  it("should let authors publish their own posts, and editors and admins anyone's", () => {
    const own = (role: Role) => canPublishFor(member(role, 'me'), { authorId: 'me' });
    const others = (role: Role) => canPublishFor(member(role, 'me'), { authorId: 'you' });
    expect(Object.values(Role).map(own)).toEqual([true, true, true, false]);
    expect(Object.values(Role).map(others)).toEqual([true, true, false, false]);
  });

  it('should store roles in lower case, and read the role before roles as an author', () => {
    expect(Object.values(Role).map(storedRole)).toEqual([
      'admin',
      'editor',
      'author',
      'contributor',
    ]);
    expect(['admin', 'editor', 'author', 'contributor', 'user'].map(roleOf)).toEqual([
      Role.ADMIN,
      Role.EDITOR,
      Role.AUTHOR,
      Role.CONTRIBUTOR,
      Role.AUTHOR,
    ]);
    expect(roleOf('owner')).toBe(Role.CONTRIBUTOR);
  });
});
