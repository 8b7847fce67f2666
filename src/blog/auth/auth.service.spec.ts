import { JwtService } from '@nestjs/jwt';

import { AuthService } from './auth.service';
import { PasswordService } from './password.service';
import {
  BlogTestingModule,
  createBlogTestingModule,
  refusalOf,
} from '../testing/blog-testing-module';
import { UsersService } from '../users/users.service';
import { SignUpInput } from './dto/sign-up.input';

/** A hand-written PasswordService: a readable "hash", and a record of the checks made. */
class FakePasswords implements Pick<PasswordService, 'hash' | 'verify' | 'verifyNothing'> {
  readonly hashed: string[] = [];
  readonly checks: string[] = [];

  async hash(password: string): Promise<string> {
    this.hashed.push(password);
    return `hashed(${password})`;
  }

  async verify(hash: string, password: string): Promise<boolean> {
    this.checks.push('verify');
    return hash === `hashed(${password})`;
  }

  async verifyNothing(): Promise<false> {
    this.checks.push('verifyNothing');
    return false;
  }
}

describe('AuthService: signing up and logging in', () => {
  let blog: BlogTestingModule;
  let auth: AuthService;
  let users: UsersService;
  let passwords: FakePasswords;
  const jwt = new JwtService({
    secret: 'a test secret of at least 32 chars',
    signOptions: { expiresIn: '1h' },
  });

  const signUpInput = (overrides: Partial<SignUpInput> = {}): SignUpInput => ({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    password: 'correct horse battery',
    ...overrides,
  });

  beforeEach(async () => {
    passwords = new FakePasswords();
    blog = await createBlogTestingModule([
      AuthService,
      UsersService,
      { provide: PasswordService, useValue: passwords },
      { provide: JwtService, useValue: jwt },
    ]);
    auth = blog.moduleRef.get(AuthService);
    users = blog.moduleRef.get(UsersService);
  });

  afterEach(() => blog.close());

  describe('signUp', () => {
    it("should store the password's hash, never the password, and answer a token for the new user", async () => {
      const { token, expiresAt, user } = await auth.signUp(signUpInput({ handle: 'ada' }));
      const stored = await users.findByEmailWithPassword('ada@example.com');
      expect(stored?.passwordHash).toBe('hashed(correct horse battery)');
      expect(jwt.verify(token)).toMatchObject({ sub: user.id, ver: 0 });
      expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    });

    it('should refuse an email already registered, in any case, with CONFLICT on email, before hashing', async () => {
      await auth.signUp(signUpInput());
      const again = signUpInput({ email: 'ADA@Example.com', password: 'another password' });
      expect(await refusalOf(auth.signUp(again))).toEqual({ code: 'CONFLICT', field: 'email' });
      expect(await users.list({ first: 10, after: null })).toHaveLength(1);
      expect(passwords.hashed).toEqual(['correct horse battery']);
    });

    it('should derive a handle from the name, and another when that one is taken', async () => {
      const first = await auth.signUp(signUpInput());
      const second = await auth.signUp(signUpInput({ email: 'other@example.com' }));
      expect(first.user.handle).toBe('ada_lovelace');
      expect(second.user.handle).toMatch(/^ada_lovelace_\d{4,5}$/);
    });

    it('should refuse with CONFLICT on handle when no derived handle is free', async () => {
      jest
        .spyOn(users, 'takenHandles')
        .mockImplementation(async (candidates) => new Set(candidates));
      expect(await refusalOf(auth.signUp(signUpInput()))).toEqual({
        code: 'CONFLICT',
        field: 'handle',
      });
    });
  });

  describe('logIn', () => {
    beforeEach(() => auth.signUp(signUpInput()));

    it('should answer a token for the right email and password, the email in any case', async () => {
      const { token, user } = await auth.logIn({
        email: 'Ada@Example.com',
        password: 'correct horse battery',
      });
      expect(jwt.verify(token).sub).toBe(user.id);
    });

    it('should answer a wrong password and an unknown email alike, each after a password check', async () => {
      const wrong = await auth
        .logIn({ email: 'ada@example.com', password: 'wrong' })
        .catch((error: Error) => error);
      const unknown = await auth
        .logIn({ email: 'nobody@example.com', password: 'wrong' })
        .catch((error: Error) => error);
      expect(await refusalOf(Promise.reject(wrong))).toEqual({ code: 'UNAUTHENTICATED' });
      expect(String(unknown)).toBe(String(wrong));
      expect(passwords.checks).toEqual(['verify', 'verifyNothing']);
    });
  });
});
