import { Role } from './roles';
import { User } from './user.entity';
import { NewUser, UsersService } from './users.service';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';

describe('UsersService', () => {
  let blog: BlogTestingModule;
  let users: UsersService;

  const newUser = (overrides: Partial<NewUser> = {}): NewUser => ({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    handle: 'ada',
    passwordHash: 'hash-1',
    ...overrides,
  });

  beforeEach(async () => {
    blog = await createBlogTestingModule([UsersService]);
    users = blog.moduleRef.get(UsersService);
  });

  afterEach(() => blog.close());

  describe('create', () => {
    it('should store the email and handle in their canonical form, found however they are typed', async () => {
      const user = await users.create(newUser({ email: ' ＡＤＡ@Example.com ', handle: 'ADA' }));
      expect(user).toMatchObject({ email: 'ada@example.com', handle: 'ada', role: 'AUTHOR' });
      expect((await users.findByHandle('Ada'))?.id).toBe(user.id);
      expect((await users.findByEmailWithPassword('ADA@example.com'))?.passwordHash).toBe('hash-1');
      expect(await users.emailTaken('Ada@Example.com')).toBe(true);
    });

    it('should refuse a taken email or handle with CONFLICT naming the field', async () => {
      await users.create(newUser());
      expect(
        await refusalOf(users.create(newUser({ email: 'ADA@example.com', handle: 'x_1' }))),
      ).toEqual({ code: 'CONFLICT', field: 'email' });
      expect(
        await refusalOf(users.create(newUser({ email: 'other@example.com', handle: 'Ada' }))),
      ).toEqual({ code: 'CONFLICT', field: 'handle' });
    });

    it('should say which of the candidate handles are taken', async () => {
      await users.create(newUser());
      expect(await users.takenHandles(['ada', 'ada_2'])).toEqual(new Set(['ada']));
    });
  });

  describe('updateProfile', () => {
    let ada: User;
    let bob: User;

    beforeEach(async () => {
      ada = await users.create(newUser({ avatar: 'https://example.com/ada.png' }));
      bob = await users.create(newUser({ email: 'bob@example.com', handle: 'bob' }));
    });

    it('should change only the fields given and answer the stored row', async () => {
      const updated = await users.updateProfile(ada, { name: 'Countess', handle: 'Countess' });
      expect(updated).toMatchObject({
        name: 'Countess',
        handle: 'countess',
        avatar: 'https://example.com/ada.png',
      });
      expect((await users.findById(ada.id))?.name).toBe('Countess');
    });

    it('should remove the avatar when it is given as null', async () => {
      expect((await users.updateProfile(ada, { avatar: null })).avatar).toBeNull();
    });

    it("should refuse someone else's handle with CONFLICT and change nothing", async () => {
      expect(await refusalOf(users.updateProfile(ada, { name: 'New', handle: 'BOB' }))).toEqual({
        code: 'CONFLICT',
        field: 'handle',
      });
      expect((await users.findById(ada.id))?.name).toBe('Ada Lovelace');
      expect((await users.findById(bob.id))?.handle).toBe('bob');
    });

    it('should refuse an anonymous viewer with UNAUTHENTICATED', async () => {
      expect(await refusalOf(users.updateProfile(null, { name: 'x' }))).toEqual({
        code: 'UNAUTHENTICATED',
      });
    });
  });

  describe('tokens', () => {
    it('should change the password only at the token version read, and revoke older tokens', async () => {
      const ada = await users.create(newUser());
      expect(await users.changePassword(ada.id, 'hash-2', 0)).toBe(true);
      expect(await users.changePassword(ada.id, 'hash-3', 0)).toBe(false);
      const stored = await users.findByIdWithPassword(ada.id);
      expect(stored).toMatchObject({ passwordHash: 'hash-2', tokenVersion: 1 });
    });

    it('should revoke every token by raising the token version', async () => {
      const ada = await users.create(newUser());
      await users.revokeTokens(ada.id);
      await users.revokeTokens(ada.id);
      expect((await users.findById(ada.id))?.tokenVersion).toBe(2);
    });
  });

  describe('list', () => {
    it('should list users in creation order, going on after the last one seen', async () => {
      const created: User[] = [];
      for (const name of ['a', 'b', 'c']) {
        created.push(
          await users.create(newUser({ email: `${name}@x.io`, handle: `user_${name}` })),
        );
      }
      const handles = (list: User[]) => list.map((user) => user.handle);
      expect(handles(await users.list({ first: 2, after: null }))).toEqual(['user_a', 'user_b']);
      expect(handles(await users.list({ first: 2, after: created[1].id }))).toEqual(['user_c']);
      expect(await users.list({ first: 2, after: created[2].id })).toEqual([]);
    });
  });

  describe('setRole', () => {
    it('should let an admin give roles, and refuse everyone else', async () => {
      const [admin, editor, bob] = [
        await blog.signUp(Role.ADMIN),
        await blog.signUp(Role.EDITOR),
        await blog.signUp(),
      ];
      expect((await users.setRole(admin, bob.id, Role.CONTRIBUTOR)).role).toBe(Role.CONTRIBUTOR);
      expect((await users.findById(bob.id))?.role).toBe(Role.CONTRIBUTOR);
      expect(await refusalOf(users.setRole(editor, bob.id, Role.EDITOR))).toEqual({
        code: 'FORBIDDEN',
      });
      expect(await refusalOf(users.setRole(null, bob.id, Role.EDITOR))).toEqual({
        code: 'UNAUTHENTICATED',
      });
      expect(
        await refusalOf(users.setRole(admin, '01900000-0000-7000-8000-000000000000', Role.EDITOR)),
      ).toEqual({ code: 'NOT_FOUND' });
    });

    it('should refuse to demote the last admin, and let one step down when another remains', async () => {
      const [ada, bea] = [await blog.signUp(Role.ADMIN), await blog.signUp()];
      expect(await refusalOf(users.setRole(ada, ada.id, Role.AUTHOR))).toEqual({
        code: 'CONFLICT',
        field: 'role',
      });
      await users.setRole(ada, bea.id, Role.ADMIN);
      expect((await users.setRole(ada, ada.id, Role.AUTHOR)).role).toBe(Role.AUTHOR);
    });
  });
});
