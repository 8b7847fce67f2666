import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { conflict, unauthenticated } from '../common/errors';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AuthPayload } from './dto/auth-payload.type';
import { LogInInput } from './dto/log-in.input';
import { SignUpInput } from './dto/sign-up.input';
import { AccessTokenPayload } from './jwt.strategy';
import { PasswordService } from './password.service';

const WRONG_CREDENTIALS = 'The email or password is wrong.';

/** Turns a display name into a handle stem: lower-case a-z, 0-9 and _, at most 24 characters. */
export function handleStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 24)
    .replace(/_+$/, '');
  if (stem.length >= 3) return stem;
  return stem ? `${stem}_user` : 'user';
}

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordService,
    private readonly jwt: JwtService,
  ) {}

  async signUp(input: SignUpInput): Promise<AuthPayload> {
    if (await this.users.emailTaken(input.email)) {
      throw conflict('That email is already registered.', 'email');
    }
    const handle = input.handle ?? (await this.freeHandle(input.name));
    const user = await this.users.create({
      name: input.name,
      email: input.email,
      handle,
      avatar: input.avatar,
      passwordHash: await this.passwords.hash(input.password),
    });
    return this.issueToken(user);
  }

  /** One generic UNAUTHENTICATED answer whether the email or the password is wrong. */
  async logIn(input: LogInInput): Promise<AuthPayload> {
    const user = await this.users.findByEmailWithPassword(input.email);
    const valid = user
      ? await this.passwords.verify(user.passwordHash, input.password)
      : await this.passwords.verifyNothing(input.password);
    if (!user || !valid) throw unauthenticated(WRONG_CREDENTIALS);
    return this.issueToken(user);
  }

  async issueToken(user: User): Promise<AuthPayload> {
    const payload: Omit<AccessTokenPayload, 'exp'> = { sub: user.id };
    const token = await this.jwt.signAsync(payload);
    const { exp } = this.jwt.decode<AccessTokenPayload>(token);
    return { token, expiresAt: new Date((exp ?? 0) * 1000), user };
  }

  private async freeHandle(name: string): Promise<string> {
    const stem = handleStem(name);
    const candidates = [
      stem,
      ...Array.from({ length: 8 }, () => `${stem}_${randomInt(1000, 100000)}`),
    ];
    const taken = await this.users.takenHandles(candidates);
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (!free)
      throw conflict('Could not derive a free handle from the name; choose one.', 'handle');
    return free;
  }
}
