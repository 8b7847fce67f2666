import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { Post } from './post.entity';

/**
 * A slug a post has or had: its current one (`posts.slug`) and every earlier one, so that
 * `postBySlug` finds it by an old address and no other post takes that address.
 */
@Entity('post_slugs')
@Index('IDX_post_slugs_post', ['postId'])
export class PostSlug {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  slug: string;

  @Column({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  /** When the post took it: `previousSlugs` lists the newest first. */
  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_slugs_post' })
  protected postRow?: Post;
}
