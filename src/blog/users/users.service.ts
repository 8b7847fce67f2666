import { Injectable, Optional } from '@nestjs/common';

import { EmailChanges } from '../auth/email-changes';
import { isUniqueViolation } from '../common/database-errors';
import { badUserInput, conflict, forbidden, notFound, unauthenticated } from '../common/errors';
import { Page } from '../common/pagination';
import { PreparedStatements, Sql, SqlRunner } from '../common/sql';
import { newId } from '../common/uuid';
import { ImagesService } from '../images/images.service';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { UpdateProfileInput } from './dto/update-profile.input';
import { isAdmin, Role, storedRole } from './roles';
import { canonicalIdentifier } from './user-identifiers';
import { User } from './user.entity';
import { toUser } from './user.rows';
import { usersSql } from './users.sql';
import { Viewer } from './viewer';

export interface NewUser {
  name: string;
  email: string;
  handle: string;
  avatar?: string | null;
  passwordHash: string;
  /** Default AUTHOR; sign-up gives the module's `signUpRole`. */
  role?: Role;
  /** Whether the address is known to be theirs already (the demo's users). Default false. */
  emailVerified?: boolean;
}

/** Users: look-ups, sign-up records and profile changes. For the host's own code. */
@Injectable()
export class UsersService {
  private readonly statements: PreparedStatements<typeof usersSql>;

  constructor(
    private readonly sql: Sql,
    @Optional() private readonly images?: ImagesService,
    @Optional() private readonly emailChanges?: EmailChanges,
    @Optional() private readonly webhooks?: WebhookOutbox,
  ) {
    this.statements = sql.prepare(usersSql);
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.sql.one(this.statements.byId, { id });
    return row && toUser(row);
  }

  async findByIds(ids: readonly string[]): Promise<User[]> {
    return (await this.sql.all(this.statements.byIds, { ids })).map(toUser);
  }

  async findByHandle(handle: string): Promise<User | null> {
    const row = await this.sql.one(this.statements.byHandle, {
      handle: canonicalIdentifier(handle),
    });
    return row && toUser(row);
  }

  /** The user with their password hash, for logging in. */
  async findByEmailWithPassword(email: string): Promise<User | null> {
    const row = await this.sql.one(this.statements.byEmailWithPassword, {
      email: canonicalIdentifier(email),
    });
    return row && toUser(row);
  }

  /** The user with their password hash, for checking it again (changing it, deleting the account). */
  async findByIdWithPassword(id: string): Promise<User | null> {
    const row = await this.sql.one(this.statements.byIdWithPassword, { id });
    return row && toUser(row);
  }

  /** Users in id (creation) order. */
  async list(page: Page): Promise<User[]> {
    const rows = page.after
      ? await this.sql.all(this.statements.after, { after: page.after, first: page.first })
      : await this.sql.all(this.statements.first, { first: page.first });
    return rows.map(toUser);
  }

  /** The handles of `candidates` that are already taken. */
  async takenHandles(candidates: string[]): Promise<Set<string>> {
    const taken = await this.sql.all(this.statements.takenHandles, { handles: candidates });
    return new Set(taken.map((user) => user.handle));
  }

  async emailTaken(email: string): Promise<boolean> {
    const row = await this.sql.one(this.statements.emailTaken, {
      email: canonicalIdentifier(email),
    });
    return row !== null;
  }

  /** Inserts a user, on `sql` (a transaction) if given; a taken email or handle is CONFLICT. */
  async create(input: NewUser, sql: SqlRunner = this.sql): Promise<User> {
    const now = new Date();
    const user = Object.assign(new User(), {
      name: input.name,
      email: canonicalIdentifier(input.email),
      handle: canonicalIdentifier(input.handle),
      avatar: input.avatar ?? null,
      passwordHash: input.passwordHash,
      id: newId(),
      tokenVersion: 0,
      createdAt: now,
      updatedAt: now,
      role: input.role ?? Role.AUTHOR,
      emailVerified: input.emailVerified ?? false,
    });
    const insert = async (runner: SqlRunner) => {
      await runner.run(this.statements.insert, { ...user, role: storedRole(user.role) });
      await this.webhooks?.userCreated(runner, user);
    };
    // Its webhook event in its transaction: the caller's, or one of its own.
    await this.uniquely(() =>
      sql === this.sql && this.webhooks ? this.sql.transaction(insert) : insert(sql),
    );
    return user;
  }

  /**
   * Changes the viewer's name, handle, avatar or address; a handle or address taken by someone
   * else is CONFLICT. A new address needs the current password and is mailed a verification
   * link; it is unverified until followed.
   */
  async updateProfile(viewer: Viewer, input: UpdateProfileInput): Promise<User> {
    if (!viewer) throw unauthenticated('You must be signed in to edit your profile.');
    const avatarImageId = this.avatarImageOf(input);
    const setAvatar = input.avatar !== undefined || input.avatarImageId !== undefined;
    const newEmail = await this.newEmailOf(viewer, input);
    const write = async (sql: SqlRunner) => {
      if (input.name != null || input.handle != null || setAvatar) {
        const changes = {
          id: viewer.id,
          name: input.name ?? null,
          handle: input.handle == null ? null : canonicalIdentifier(input.handle),
          setAvatar,
          avatar: input.avatar ?? null,
          avatarImageId,
          updatedAt: new Date(),
        };
        if (avatarImageId) {
          changes.avatarImageId = await this.holdAvatarImage(sql, viewer.id, avatarImageId);
        }
        await this.uniquely(() => sql.run(this.statements.updateProfile, changes));
      }
      if (newEmail) await this.uniquely(() => this.emailChanges!.apply(sql, viewer, newEmail));
    };
    if ((!newEmail || !this.emailChanges) && !avatarImageId) await write(this.sql);
    else {
      // The new address and its verification mail stand or fall with the rest of the change, and
      // an avatar's image stays held until the change is written (see holdAvatarImage).
      await this.sql.transaction(write);
      if (newEmail) this.emailChanges?.committed(viewer, newEmail);
    }
    // Read back rather than merge into `viewer`: it is the row as the request found it, and an
    // earlier mutation of the same operation may have changed it since.
    const user = await this.findById(viewer.id);
    if (!user) throw unauthenticated('The signed-in user no longer exists.');
    return user;
  }

  /**
   * The address `input.email` changes to, its current password checked (see EmailChanges); null
   * when it changes none.
   */
  private async newEmailOf(viewer: User, input: UpdateProfileInput): Promise<string | null> {
    if (input.email == null) return null;
    if (!this.emailChanges) {
      throw badUserInput('This service does not change addresses.', 'input.email');
    }
    return this.emailChanges.checked(viewer, input);
  }

  /** `input.avatarImageId`, or null: BAD_USER_INPUT with an `avatar` URL too. */
  private avatarImageOf(input: UpdateProfileInput): string | null {
    if (input.avatarImageId == null) return null;
    if (input.avatar != null) {
      throw badUserInput('Give avatar or avatarImageId, not both.', 'input.avatarImageId');
    }
    return input.avatarImageId;
  }

  /**
   * The id of the avatar's image as stored, held on `sql` (a transaction) until the profile is
   * written (see ImagesService.holdForUse): NOT_FOUND for no image, FORBIDDEN for someone else's.
   */
  private async holdAvatarImage(sql: SqlRunner, userId: string, imageId: string): Promise<string> {
    if (!this.images) throw notFound('Image');
    return this.images.holdForUse(sql, imageId, userId, 'Your avatar must be one of your images.');
  }

  /**
   * Sets a new password hash and revokes every token issued before, in one statement, if the
   * user's token version is still `tokenVersion`. False when it is not (another change of the
   * password, or a revocation, came first): then nothing changed.
   */
  async changePassword(id: string, passwordHash: string, tokenVersion: number): Promise<boolean> {
    const changed = await this.sql.run(this.statements.changePassword, {
      id,
      passwordHash,
      tokenVersion,
      updatedAt: new Date(),
    });
    return changed === 1;
  }

  /**
   * Gives `userId` the role `role`: admins only (FORBIDDEN otherwise). Demoting the last admin,
   * themself included, is CONFLICT on `role`, so that the blog always keeps one; of two admins
   * demoting each other at once, one is refused.
   */
  async setRole(viewer: Viewer, userId: string, role: Role): Promise<User> {
    if (!viewer) throw unauthenticated('You must be signed in to change roles.');
    if (!isAdmin(viewer)) throw forbidden('Only admins change roles.');
    return this.sql.transaction(async (sql) => {
      const user = await this.lockedForRole(sql, userId, role);
      if (user.role === role) return user;
      const updatedAt = new Date();
      await sql.run(this.statements.setRole, { id: user.id, role: storedRole(role), updatedAt });
      return Object.assign(user, { role, updatedAt });
    });
  }

  /**
   * The user whose role is to become `role`, read with the admins locked (PostgreSQL; SQLite has
   * one writer): NOT_FOUND when there is none, CONFLICT when they are the last admin and `role`
   * is not admin.
   */
  private async lockedForRole(sql: SqlRunner, userId: string, role: Role): Promise<User> {
    const admins = await sql.all(this.statements.lockAdmins, {});
    const row = await sql.one(this.statements.byId, { id: userId });
    if (!row) throw notFound('User');
    const user = toUser(row);
    const lastAdmin = admins.length === 1 && admins[0].id === user.id;
    if (lastAdmin && role !== Role.ADMIN) {
      throw conflict(
        'This user is the last admin: make another user an admin before changing their role.',
        'role',
      );
    }
    return user;
  }

  /**
   * Bans `userId` from writing until `until` (null: for good), saying why; a ban in force is
   * replaced. Who may ban whom is the moderation feature's to decide. False for no such user.
   */
  async ban(
    userId: string,
    reason: string,
    until: Date | null,
    sql: SqlRunner = this.sql,
  ): Promise<boolean> {
    const ban = { id: userId, at: new Date(), until, reason };
    return (await sql.run(this.statements.ban, ban)) > 0;
  }

  /** Lifts the ban of `userId`; false when they were not banned. */
  async unban(userId: string, sql: SqlRunner = this.sql): Promise<boolean> {
    return (await sql.run(this.statements.unban, { id: userId })) > 0;
  }

  /** Revokes every token of the user issued so far: their version no longer matches. */
  async revokeTokens(id: string): Promise<void> {
    await this.sql.run(this.statements.revokeTokens, { id });
  }

  /** Runs a write, turning a unique-index failure into CONFLICT naming the field. */
  private async uniquely<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'email')) {
        throw conflict('That email is already registered.', 'email');
      }
      if (isUniqueViolation(error, 'handle')) {
        throw conflict('That handle is already taken.', 'handle');
      }
      throw error;
    }
  }
}
