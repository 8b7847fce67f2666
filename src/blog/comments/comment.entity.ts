import { Field, ID, ObjectType } from '@nestjs/graphql';
import { BeforeInsert, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { textFieldCost } from '../common/response-size';
import { newId } from '../common/uuid';
import { Post } from '../posts/post.entity';
import { User } from '../users/user.entity';
import { COMMENT_LENGTH } from './dto/add-comment.args';

/** A reader's comment on a published post. */
@ObjectType({ description: 'A comment on a post.' })
@Entity('comments')
@Index('IDX_comments_post', ['postId', 'id'])
@Index('IDX_comments_author', ['authorId'])
export class Comment {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Costs by its longest length (see textFieldCost); its resolver charges the answer's budget. */
  @Field({ complexity: textFieldCost(COMMENT_LENGTH.max) })
  @Column({ type: 'text' })
  text: string;

  /** Rendered from `text` on write, with the comments' allow-list (no headings, no images). */
  @Field({
    complexity: textFieldCost(2 * COMMENT_LENGTH.max),
    description: 'The text rendered to HTML on write and sanitised: safe to insert into a page.',
  })
  @Column({ name: 'text_html', type: 'text', nullable: true })
  textHtml: string;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  /** Resolved to `post` through the per-request post loader. */
  @Column({ name: 'post_id', type: 'varchar', length: 36 })
  postId: string;

  /** Resolved to `author` through the per-request user loader. */
  @Column({ name: 'author_id', type: 'varchar', length: 36 })
  authorId: string;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_comments_post' })
  protected postRow?: Post;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_comments_author' })
  protected authorRow?: User;

  @BeforeInsert()
  protected assignIdAndTimestamp(): void {
    this.id ??= newId();
    this.createdAt ??= new Date();
  }
}
