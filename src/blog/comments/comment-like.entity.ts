import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { Comment } from './comment.entity';
import { User } from '../users/user.entity';

/** One user's like of one comment; the primary key makes liking twice leave one row. */
@Entity('comment_likes')
@Index('IDX_comment_likes_user', ['userId', 'commentId'])
export class CommentLike {
  @PrimaryColumn({ name: 'comment_id', type: 'varchar', length: 36 })
  commentId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id', foreignKeyConstraintName: 'FK_comment_likes_comment' })
  protected commentRow?: Comment;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_comment_likes_user' })
  protected userRow?: User;
}
