import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One user's like of one post; the primary key makes liking twice leave one row. */
@Entity('likes')
@Index('IDX_likes_user', ['userId', 'postId'])
export class Like {
  @PrimaryColumn({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
