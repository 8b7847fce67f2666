import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { AccountTokenPurpose } from './account-tokens';
import { User } from '../users/user.entity';

/**
 * A single-use token mailed to an account: a password reset or an address verification. Only
 * its SHA-256 is kept; it works once, before `expiresAt`, and only while the account's address
 * is still `email`, the one it was mailed to. It goes with its account.
 */
@Entity('account_tokens')
@Index('UQ_account_tokens_hash', ['tokenHash'], { unique: true })
@Index('IDX_account_tokens_user', ['userId', 'purpose', 'createdAt'])
export class AccountToken {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ type: 'varchar', length: 32 })
  purpose: AccountTokenPurpose;

  /** The token's SHA-256, in hex. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** The address the token was mailed to (and, for a verification, the one it verifies). */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'expires_at' })
  expiresAt: Date;

  /** When it was used, or spent by another token's use; null while it may still be used. */
  @Column({ name: 'used_at', type: Date, nullable: true })
  usedAt: Date | null;

  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_account_tokens_user' })
  protected userRow?: User;
}
