import { Field, ID, ObjectType } from '@nestjs/graphql';
import { BeforeInsert, Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { Role, ROLE_COLUMN } from './roles';
import { newId } from '../common/uuid';

/** A user's role; see {@link Role}. */
export type UserRole = Role;

/** A person who writes posts. The password hash is never exposed. */
@ObjectType({ description: 'A member of the blog.' })
@Entity('users')
@Index('UQ_users_email', ['email'], { unique: true })
@Index('UQ_users_handle', ['handle'], { unique: true })
@Index('IDX_users_avatar_image', ['avatarImageId'])
export class User {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Field()
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Exposed through UsersResolver.email, which hides it from other viewers. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /**
   * Whether the owner proved `email` theirs (verifyEmail, or a password reset mailed to it).
   * Exposed through the account e-mail resolver, which hides it from other viewers.
   */
  @Column({ name: 'email_verified', type: 'boolean', default: false })
  emailVerified: boolean;

  @Field({ description: 'Unique, URL-safe, case-insensitive: 3-30 of a-z, 0-9 and _.' })
  @Column({ type: 'varchar', length: 30 })
  handle: string;

  /**
   * The avatar given by URL; null when it is an uploaded image (`avatarImageId`). Answered
   * through UsersResolver.avatar, which makes the image's URL.
   */
  @Field(() => String, {
    nullable: true,
    description:
      "An absolute URL of the user's picture, or null: the URL they gave, or the 320-pixel-wide copy of the image they uploaded for it.",
  })
  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  /** One of the user's images as their picture (see `avatar`). */
  @Column({ name: 'avatar_image_id', type: 'varchar', length: 36, nullable: true })
  avatarImageId: string | null;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, select: false })
  passwordHash: string;

  /** Stored in lower case (`author`); read through roleOf, which maps the legacy `user`. */
  @Field(() => Role, { description: 'What the user may do on the blog; visible to everyone.' })
  @Column({ type: 'varchar', length: 16, default: 'author', transformer: ROLE_COLUMN })
  role: Role;

  /** When a moderator banned the user; null when they are not banned. */
  @Column({ name: 'banned_at', type: Date, nullable: true })
  bannedAt: Date | null;

  /** When the ban ends; null with `bannedAt` set: for good. Answered to the user and moderators. */
  @Column({ name: 'banned_until', type: Date, nullable: true })
  bannedUntil: Date | null;

  /** Why the user is banned, as the moderator gave it. */
  @Column({ name: 'ban_reason', type: 'varchar', length: 500, nullable: true })
  banReason: string | null;

  /** Carried in each access token (`ver`); raising it revokes every token issued before. */
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion: number;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Column({ name: 'updated_at' })
  updatedAt: Date;

  @BeforeInsert()
  protected assignIdAndTimestamps(): void {
    this.id ??= newId();
    this.tokenVersion ??= 0;
    this.createdAt ??= new Date();
    this.updatedAt ??= this.createdAt;
  }
}
