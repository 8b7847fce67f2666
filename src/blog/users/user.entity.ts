import { Field, ID, ObjectType } from '@nestjs/graphql';
import { BeforeInsert, Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { newId } from '../common/uuid';

export type UserRole = 'user' | 'admin';

/** A person who writes posts. The password hash and role are never exposed. */
@ObjectType({ description: 'A member of the blog.' })
@Entity('users')
@Index('UQ_users_email', ['email'], { unique: true })
@Index('UQ_users_handle', ['handle'], { unique: true })
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

  @Field({ description: 'Unique, URL-safe, case-insensitive: 3-30 of a-z, 0-9 and _.' })
  @Column({ type: 'varchar', length: 30 })
  handle: string;

  @Field(() => String, {
    nullable: true,
    description: "An http(s) URL of the user's picture, or null.",
  })
  @Column({ type: 'varchar', length: 2048, nullable: true })
  avatar: string | null;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, select: false })
  passwordHash: string;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  role: UserRole;

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
