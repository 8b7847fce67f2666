import { createHmac } from 'node:crypto';

import { GraphQLError } from 'graphql';

import {
  AccessTokenService,
  Authentication,
  blogJwtService,
  TOKEN_REFUSALS,
  TokenRefusal,
} from './access-token.service';
import { Role } from '../users/roles';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';

const SECRET = 'a-unit-test-secret-of-at-least-32-characters';
const now = () => Math.floor(Date.now() / 1000);

function forge(payload: object, { secret = SECRET, alg = 'HS256' } = {}): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${part({ alg, typ: 'JWT' })}.${part(payload)}`;
  if (alg === 'none') return `${head}.`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

describe('AccessTokenService', () => {
  const ada = { id: 'ada', tokenVersion: 2 } as User;
  let rows: Map<string, User>;
  let findById: jest.Mock<Promise<User | null>, [string]>;
  let tokens: AccessTokenService;

  beforeEach(() => {
    rows = new Map([[ada.id, ada]]);
    findById = jest.fn(async (id: string) => rows.get(id) ?? null);
    const users = { findById } as unknown as UsersService;
    tokens = new AccessTokenService(blogJwtService({ jwtSecret: SECRET, jwtExpiresIn: 60 }), users);
  });

  const refusalOf = async (authorization: unknown) => {
    const error = await tokens.authenticate(authorization).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(GraphQLError);
    return { code: (error as GraphQLError).extensions.code, message: (error as Error).message };
  };

  it.each([undefined, null, '', '   '])('should take %p as anonymous', async (authorization) => {
    expect(await tokens.authenticate(authorization)).toBeNull();
    expect(findById).not.toHaveBeenCalled();
  });

  it('should accept a current token, as Bearer or bare, with its expiry and version', async () => {
    const exp = now() + 60;
    const token = forge({ sub: 'ada', ver: 2, exp });
    const expected: Authentication = { user: ada, expiresAt: exp * 1000, tokenVersion: 2 };
    expect(await tokens.authenticate(`Bearer ${token}`)).toEqual(expected);
    expect(await tokens.authenticate(token)).toEqual(expected);
  });

  it.each<[string, () => unknown, TokenRefusal]>([
    ['garbage', () => 'Bearer not.a.jwt', 'malformed'],
    ['an empty Bearer', () => 'Bearer ', 'malformed'],
    ['a value that is not a string', () => 42, 'malformed'],
    ['a token without exp', () => forge({ sub: 'ada', ver: 2 }), 'malformed'],
    ['a token without sub', () => forge({ ver: 2, exp: now() + 60 }), 'malformed'],
    ['a fractional version', () => forge({ sub: 'ada', ver: 1.5, exp: now() + 60 }), 'malformed'],
    [
      'another secret',
      () => forge({ sub: 'ada', ver: 2, exp: now() + 60 }, { secret: 'x'.repeat(40) }),
      'badSignature',
    ],
    [
      'alg none',
      () => forge({ sub: 'ada', ver: 2, exp: now() + 60 }, { alg: 'none' }),
      'badSignature',
    ],
    [
      'alg HS512',
      () => forge({ sub: 'ada', ver: 2, exp: now() + 60 }, { alg: 'HS512' }),
      'badSignature',
    ],
    ['an expired token', () => forge({ sub: 'ada', ver: 2, exp: now() - 1 }), 'expired'],
    [
      'an expired token of another secret',
      () => forge({ sub: 'ada', ver: 2, exp: now() - 1 }, { secret: 'x'.repeat(40) }),
      'badSignature',
    ],
    ['a revoked token', () => forge({ sub: 'ada', ver: 1, exp: now() + 60 }), 'revoked'],
    ['a token before versions', () => forge({ sub: 'ada', exp: now() + 60 }), 'revoked'],
    ['the token of a deleted user', () => forge({ sub: 'gone', exp: now() + 60 }), 'userGone'],
  ])('should refuse %s as UNAUTHENTICATED, %s', async (_, authorization, reason) => {
    expect(await refusalOf(authorization())).toEqual({
      code: 'UNAUTHENTICATED',
      message: TOKEN_REFUSALS[reason],
    });
  });

  it('should give each kind of refusal its own message', () => {
    const messages = Object.values(TOKEN_REFUSALS);
    expect(new Set(messages).size).toBe(messages.length);
  });

  it('should throw, not refuse, when the user cannot be read', async () => {
    const failure = new Error('no such table: users');
    findById.mockRejectedValueOnce(failure);
    await expect(tokens.authenticate(forge({ sub: 'ada', ver: 2, exp: now() + 60 }))).rejects.toBe(
      failure,
    );
  });

  describe('the tokens it has checked', () => {
    const jwt = blogJwtService({ jwtSecret: SECRET, jwtExpiresIn: 60 });
    const outcomeOf = (service: AccessTokenService, token: string) =>
      service.authenticate(token).then(
        (authentication) => ({ user: authentication?.user.id }),
        (error: Error) => ({ refusal: error.message }),
      );
    let verifyAsync: jest.SpyInstance;
    beforeEach(() => {
      verifyAsync = jest.spyOn(jwt, 'verifyAsync');
      tokens = new AccessTokenService(jwt, { findById } as unknown as UsersService);
    });
    afterEach(() => jest.restoreAllMocks());

    it('should check a signature once, and the expiry and the user at every use', async () => {
      const token = forge({ sub: 'ada', ver: 2, exp: now() + 60 });
      expect(await outcomeOf(tokens, token)).toEqual({ user: 'ada' });
      expect(await outcomeOf(tokens, `Bearer ${token}`)).toEqual({ user: 'ada' });
      expect(verifyAsync).toHaveBeenCalledTimes(1);
      expect(findById).toHaveBeenCalledTimes(2);
      rows.set('ada', { ...ada, tokenVersion: 3 } as User);
      expect(await outcomeOf(tokens, token)).toEqual({ refusal: TOKEN_REFUSALS.revoked });
      rows.delete('ada');
      expect(await outcomeOf(tokens, token)).toEqual({ refusal: TOKEN_REFUSALS.userGone });
    });

    it('should check a refused token again at each use', async () => {
      const forged = forge({ sub: 'ada', ver: 2, exp: now() + 60 }, { secret: 'x'.repeat(40) });
      for (let i = 0; i < 2; i++) {
        expect(await outcomeOf(tokens, forged)).toEqual({ refusal: TOKEN_REFUSALS.badSignature });
      }
      expect(verifyAsync).toHaveBeenCalledTimes(2);
    });

    // A token checked two minutes before its expiry, used again at each of these times, answers
    // as a fresh check of it then does; so does one that is not valid before a time (nbf).
    const exp = 2_000_000_000;
    it.each([-60_000, -1_001, -1_000, -1, 0, 1, 999, 1_000, 60_000])(
      'should answer as a fresh check, %d ms from the expiry',
      async (offset) => {
        const clock = jest.spyOn(Date, 'now').mockReturnValue(exp * 1000 - 120_000);
        const plain = forge({ sub: 'ada', ver: 2, exp });
        const notBefore = forge({ sub: 'ada', ver: 2, exp, nbf: exp - 1 });
        await outcomeOf(tokens, plain);
        await outcomeOf(tokens, notBefore);
        clock.mockReturnValue(exp * 1000 + offset);
        const fresh = new AccessTokenService(jwt, { findById } as unknown as UsersService);
        for (const token of [plain, notBefore]) {
          expect(await outcomeOf(tokens, token)).toEqual(await outcomeOf(fresh, token));
        }
        expect(verifyAsync).toHaveBeenCalledTimes(5);
      },
    );
  });

  describe('recheck', () => {
    const authentication = (expiresAt = Date.now() + 60_000): Authentication => ({
      user: ada,
      expiresAt,
      tokenVersion: 2,
    });

    it('should return the user as they are now', async () => {
      const promoted = { ...ada, role: Role.ADMIN } as User;
      rows.set('ada', promoted);
      expect((await tokens.recheck(authentication())).user).toBe(promoted);
    });

    it('should use the given reader of the user', async () => {
      const read = jest.fn(async () => ada);
      await tokens.recheck(authentication(), read);
      expect(read).toHaveBeenCalledWith('ada');
      expect(findById).not.toHaveBeenCalled();
    });

    it.each<[string, () => Authentication, () => void, TokenRefusal]>([
      ['an expired token', () => authentication(Date.now() - 1), () => undefined, 'expired'],
      [
        'a revoked token',
        () => authentication(),
        () => rows.set('ada', { ...ada, tokenVersion: 3 } as User),
        'revoked',
      ],
      ['a deleted user', () => authentication(), () => rows.delete('ada'), 'userGone'],
    ])('should refuse %s with the message of authenticate', async (_, current, change, reason) => {
      change();
      await expect(tokens.recheck(current())).rejects.toThrow(TOKEN_REFUSALS[reason]);
    });
  });
});
