import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { isUniqueViolation } from '../common/database-errors';
import { conflict, unauthenticated } from '../common/errors';
import { Page } from '../common/pagination';
import { Sql } from '../common/sql';
import { UpdateProfileInput } from './dto/update-profile.input';
import { canonicalIdentifier } from './user-identifiers';
import { User } from './user.entity';
import { toUser, USER_COLUMNS, UserRow } from './user.rows';
import { Viewer } from './viewer';

export interface NewUser {
  name: string;
  email: string;
  handle: string;
  avatar?: string | null;
  passwordHash: string;
}

function statements(sql: Sql) {
  return {
    byId: sql.statement(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`),
    byIds: sql.statement(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id IN (??)`),
    first: sql.statement(`SELECT ${USER_COLUMNS} FROM users u ORDER BY u.id LIMIT ?`),
    after: sql.statement(
      `SELECT ${USER_COLUMNS} FROM users u WHERE u.id > ? ORDER BY u.id LIMIT ?`,
    ),
  };
}

@Injectable()
export class UsersService {
  private readonly statements: ReturnType<typeof statements>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly sql: Sql,
  ) {
    this.statements = statements(sql);
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.sql.one<UserRow>(this.statements.byId, [id]);
    return row && toUser(row);
  }

  async findByIds(ids: readonly string[]): Promise<User[]> {
    return (await this.sql.all<UserRow>(this.statements.byIds, [this.sql.keys(ids)])).map(toUser);
  }

  findByHandle(handle: string): Promise<User | null> {
    return this.users.findOneBy({ handle: canonicalIdentifier(handle) });
  }

  /** The user with their password hash, for logging in. */
  findByEmailWithPassword(email: string): Promise<User | null> {
    return this.users
      .createQueryBuilder('user')
      .addSelect('user.passwordHash')
      .where('user.email = :email', { email: canonicalIdentifier(email) })
      .getOne();
  }

  /** The user with their password hash, for checking it again (changing it, deleting the account). */
  findByIdWithPassword(id: string): Promise<User | null> {
    return this.users
      .createQueryBuilder('user')
      .addSelect('user.passwordHash')
      .where('user.id = :id', { id })
      .getOne();
  }

  /** Users in id (creation) order. */
  async list(page: Page): Promise<User[]> {
    const rows = page.after
      ? await this.sql.all<UserRow>(this.statements.after, [page.after, page.first])
      : await this.sql.all<UserRow>(this.statements.first, [page.first]);
    return rows.map(toUser);
  }

  /** The handles of `candidates` that are already taken. */
  async takenHandles(candidates: string[]): Promise<Set<string>> {
    const taken = await this.users.find({
      select: { handle: true },
      where: { handle: In(candidates) },
    });
    return new Set(taken.map((user) => user.handle));
  }

  async emailTaken(email: string): Promise<boolean> {
    return this.users.existsBy({ email: canonicalIdentifier(email) });
  }

  /** Inserts a user; a taken email or handle is CONFLICT. */
  async create(input: NewUser): Promise<User> {
    const user = this.users.create({
      ...input,
      email: canonicalIdentifier(input.email),
      handle: canonicalIdentifier(input.handle),
      avatar: input.avatar ?? null,
    });
    await this.uniquely(() => this.users.insert(user));
    return user;
  }

  /** Changes the viewer's name, handle or avatar; a handle taken by someone else is CONFLICT. */
  async updateProfile(viewer: Viewer, input: UpdateProfileInput): Promise<User> {
    if (!viewer) throw unauthenticated('You must be signed in to edit your profile.');
    const changes: Partial<User> = {};
    if (input.name != null) changes.name = input.name;
    if (input.handle != null) changes.handle = canonicalIdentifier(input.handle);
    if (input.avatar !== undefined) changes.avatar = input.avatar;
    if (Object.keys(changes).length > 0) {
      changes.updatedAt = new Date();
      await this.uniquely(() => this.users.update({ id: viewer.id }, changes));
    }
    // Read back rather than merge into `viewer`: it is the row as the request found it, and an
    // earlier mutation of the same operation may have changed it since.
    const user = await this.findById(viewer.id);
    if (!user) throw unauthenticated('The signed-in user no longer exists.');
    return user;
  }

  /** Sets a new password hash and revokes every token issued before, in one statement. */
  async changePassword(id: string, passwordHash: string): Promise<void> {
    await this.users.update(
      { id },
      { passwordHash, tokenVersion: () => 'token_version + 1', updatedAt: new Date() },
    );
  }

  /** Revokes every token of the user issued so far: their version no longer matches. */
  async revokeTokens(id: string): Promise<void> {
    await this.users.increment({ id }, 'tokenVersion', 1);
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
