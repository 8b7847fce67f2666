import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';

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

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_likes_post' })
  protected postRow?: Post;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_likes_user' })
  protected userRow?: User;
}
