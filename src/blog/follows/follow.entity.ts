import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

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
}
