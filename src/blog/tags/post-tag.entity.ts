import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { Post } from '../posts/post.entity';

/** One tag of one post; the primary key keeps a slug once per post. */
@Entity('post_tags')
@Index('IDX_post_tags_slug', ['slug', 'postId'])
export class PostTag {
  @PrimaryColumn({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  slug: string;

  /** The tag's place in the post's list, from 0. */
  @Column({ type: 'integer' })
  position: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_tags_post' })
  protected postRow?: Post;
}
