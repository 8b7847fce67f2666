import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';

/** One user's bookmark of one post; the primary key makes bookmarking twice leave one row. */
@Entity('bookmarks')
@Index('IDX_bookmarks_user_created', ['userId', 'createdAt', 'postId'])
@Index('IDX_bookmarks_post', ['postId'])
export class Bookmark {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @PrimaryColumn({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_bookmarks_user' })
  protected userRow?: User;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_bookmarks_post' })
  protected postRow?: Post;
}
