import { Field, ID, ObjectType } from '@nestjs/graphql';
import { BeforeInsert, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { textFieldCost } from '../common/response-size';
import { newId } from '../common/uuid';
import { User } from '../users/user.entity';
import { CONTENT_LENGTH } from './dto/create-post.input';

/** A blog post; a draft until `publishedAt` is set. */
@ObjectType({ description: 'A blog post.' })
@Entity('posts')
@Index('IDX_posts_published', ['publishedAt', 'id'])
@Index('IDX_posts_author_published', ['authorId', 'publishedAt', 'id'])
export class Post {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Field()
  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** Costs by its longest length (see textFieldCost); its resolver charges the answer's budget. */
  @Field({ complexity: textFieldCost(CONTENT_LENGTH.max) })
  @Column({ type: 'text' })
  content: string;

  /** Resolved to `author` through the per-request user loader. */
  @Column({ name: 'author_id', type: 'varchar', length: 36 })
  authorId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_posts_author' })
  protected authorRow?: User;

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @Field()
  @Column({ name: 'updated_at' })
  updatedAt: Date;

  @Field(() => Date, { nullable: true, description: 'Null while the post is a draft.' })
  @Column({ name: 'published_at', type: Date, nullable: true })
  publishedAt: Date | null;

  @BeforeInsert()
  protected assignIdAndTimestamps(): void {
    this.id ??= newId();
    this.createdAt ??= new Date();
    this.updatedAt ??= this.createdAt;
  }
}
