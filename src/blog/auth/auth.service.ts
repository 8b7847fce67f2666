import { randomInt } from 'node:crypto';

import { Inject, Injectable, Optional } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';

import { AccessTokenPayload } from './access-token.service';
import { AccountMail } from './account-mail.service';
import { AccountTokenPurpose } from './account-tokens';
import { deleteAccountSql } from './auth.sql';
import { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import { badUserInput, conflict, unauthenticated } from '../common/errors';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { ImagesService } from '../images/images.service';
import { Role } from '../users/roles';
import { User } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { Viewer } from '../users/viewer';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { AuthPayload } from './dto/auth-payload.type';
import { ChangePasswordInput } from './dto/change-password.input';
import { LogInInput } from './dto/log-in.input';
import { SignUpInput } from './dto/sign-up.input';
import { PasswordService } from './password.service';

const WRONG_CREDENTIALS = 'The email or password is wrong.';
const WRONG_PASSWORD = 'The password is wrong.';

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

/** Sign-up, log-in, passwords, log-out everywhere, account deletion. For the host's own code. */
@Injectable()
export class AuthService {
  private readonly deleteAccountStatements: PreparedStatements<typeof deleteAccountSql>;
  private readonly signUpRole: Role;

  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordService,
    private readonly jwt: JwtService,
    private readonly sql: Sql,
    @Optional() @Inject(BLOG_MODULE_OPTIONS) options?: BlogModuleOptions,
    @Optional() private readonly images?: ImagesService,
    @Optional() private readonly accountMail?: AccountMail,
    @Optional() private readonly webhooks?: WebhookOutbox,
  ) {
    this.deleteAccountStatements = sql.prepare(deleteAccountSql);
    this.signUpRole = options?.signUpRole ?? Role.AUTHOR;
  }

  /**
   * Creates the account and signs it in. Its address is mailed a verification link, queued in
   * the account's own transaction, unless `emailVerified` says it is known to be theirs.
   */
  async signUp(
    input: SignUpInput,
    { emailVerified = false }: { emailVerified?: boolean } = {},
  ): Promise<AuthPayload> {
    if (await this.users.emailTaken(input.email)) {
      throw conflict('That email is already registered.', 'email');
    }
    const handle = input.handle ?? (await this.freeHandle(input.name));
    const newUser = {
      name: input.name,
      email: input.email,
      handle,
      avatar: input.avatar,
      passwordHash: await this.passwords.hash(input.password),
      role: this.signUpRole,
      emailVerified,
    };
    const mail = emailVerified ? undefined : this.accountMail;
    const user = await this.sql.transaction(async (sql) => {
      const created = await this.users.create(newUser, sql);
      await mail?.send(sql, AccountTokenPurpose.EmailVerification, created, created.email);
      return created;
    });
    mail?.queued();
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

  /**
   * Checks the current password, sets the new one and revokes every token issued before; the
   * answer carries a fresh token, at the token version this change wrote. The change holds only
   * if no other change of the password (or revocation) came between the check and the write:
   * of two calls that race with the same current password, one wins and the other is CONFLICT
   * and changes nothing, so the token the winner returns keeps working.
   */
  async changePassword(viewer: Viewer, input: ChangePasswordInput): Promise<AuthPayload> {
    const user = await this.withCheckedPassword(
      viewer,
      input.currentPassword,
      'input.currentPassword',
    );
    const passwordHash = await this.passwords.hash(input.newPassword);
    if (!(await this.users.changePassword(user.id, passwordHash, user.tokenVersion))) {
      throw conflict(
        'The password was changed, or the account signed out, by another request meanwhile; nothing was changed.',
      );
    }
    const changed = await this.users.findById(user.id);
    if (!changed) throw unauthenticated('The signed-in user no longer exists.');
    // The version written here, even if a revocation has raised it since: that one revokes this
    // token too.
    changed.tokenVersion = user.tokenVersion + 1;
    return this.issueToken(changed);
  }

  /** Revokes every token of the viewer issued so far, the one of this request included. */
  async logOutEverywhere(viewer: Viewer): Promise<boolean> {
    if (!viewer) throw unauthenticated('You must be signed in to log out.');
    await this.users.revokeTokens(viewer.id);
    return true;
  }

  /**
   * Deletes the viewer's account with everything that hangs off it, all or nothing: their posts
   * (with those posts' comments and likes), their comments, likes and follows both ways, and
   * their uploaded images, whose files are removed once the rows are gone.
   */
  async deleteAccount(viewer: Viewer, password: string): Promise<string> {
    const { id } = await this.withCheckedPassword(viewer, password, 'password');
    // The schema's cascades delete the rest (auth.sql.ts), the images' rows too; their files go
    // once the rows are gone. Nothing else is owed by hand: counts are counted when read, loaders
    // live one request, and a deletion publishes no event; the webhooks are told of the public
    // posts that go, in the same transaction.
    const deleteUser = async (sql: SqlRunner) => {
      await this.webhooks?.authorDeleted(sql, id, new Date());
      await sql.run(this.deleteAccountStatements.user, { id });
    };
    if (this.images) await this.images.deleteOwnerWithImages(id, deleteUser);
    else await this.sql.transaction(deleteUser);
    return id;
  }

  /** The viewer, once `password` is theirs; a wrong one is BAD_USER_INPUT on `field`. */
  private async withCheckedPassword(
    viewer: Viewer,
    password: string,
    field: string,
  ): Promise<User> {
    if (!viewer) throw unauthenticated();
    const user = await this.users.findByIdWithPassword(viewer.id);
    if (!user) throw unauthenticated('The signed-in user no longer exists.');
    if (!(await this.passwords.verify(user.passwordHash, password))) {
      throw badUserInput(WRONG_PASSWORD, field);
    }
    return user;
  }

  async issueToken(user: User): Promise<AuthPayload> {
    const payload: Omit<AccessTokenPayload, 'exp'> = { sub: user.id, ver: user.tokenVersion ?? 0 };
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
