import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { User } from '../users/user.entity';

/** `followerId` follows `followeeId`; the primary key keeps one row per pair. */
@Entity('follows')
@Index('IDX_follows_followee', ['followeeId', 'followerId'])
export class Follow {
  @PrimaryColumn({ name: 'follower_id', type: 'varchar', length: 36 })
  followerId: string;

  @PrimaryColumn({ name: 'followee_id', type: 'varchar', length: 36 })
  followeeId: string;

  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'follower_id', foreignKeyConstraintName: 'FK_follows_follower' })
  protected followerRow?: User;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'followee_id', foreignKeyConstraintName: 'FK_follows_followee' })
  protected followeeRow?: User;
}
