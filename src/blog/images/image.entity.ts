import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { User } from '../users/user.entity';

/** The formats an image is stored in: the decoded type of the upload, re-encoded. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';

/** One stored file of an image, as the `images.variants` column keeps it. */
export interface StoredVariant {
  width: number;
  height: number;
  format: ImageFormat;
  /** The file's name under `images/{id}/`: `640.webp`, `320.jpg`. */
  name: string;
  bytes: number;
}

/** The longest alternative text, in characters. */
export const IMAGE_ALT_LENGTH = 1000;

/** One resized copy of an image, as the API answers it. */
@ObjectType({ description: 'A narrower copy of an image, in WebP or in its own format.' })
export class ImageVariant {
  @Field(() => Int, { description: 'In pixels.' })
  width: number;

  @Field(() => Int, { description: 'In pixels, in the proportions of the image.' })
  height: number;

  @Field({ description: '`webp`, or the format of the image: `jpeg`, `png`, `avif` or `gif`.' })
  format: string;

  @Field({ description: 'The absolute URL of the file.' })
  url: string;
}

/**
 * An uploaded image: decoded, turned upright, stripped of its metadata and re-encoded, with its
 * variants. Its files are `images/{id}/original.{ext}` and `images/{id}/{width}.{ext}`; `bytes`
 * is their sum, what the owner's quota counts. It goes with its owner's account. `url` and
 * `variants` are resolved from the storage in use.
 */
@ObjectType({
  description:
    'An uploaded image (POST /images). Its URL is public: anyone may read it, and its variants.',
})
@Entity('images')
@Index('IDX_images_owner_created', ['ownerId', 'createdAt', 'id'])
export class Image {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 36 })
  ownerId: string;

  @Field(() => String, {
    nullable: true,
    description: 'The alternative text, for readers who cannot see it.',
  })
  @Column({ type: 'varchar', length: IMAGE_ALT_LENGTH, nullable: true })
  alt: string | null;

  @Field(() => Int, { description: 'In pixels, upright.' })
  @Column({ type: 'integer' })
  width: number;

  @Field(() => Int, { description: 'In pixels, upright.' })
  @Column({ type: 'integer' })
  height: number;

  /** `jpeg`, `png`, `webp`, `avif` or `gif`: the decoded type of the upload. */
  @Field({
    description: 'The format of the full-size file: `jpeg`, `png`, `webp`, `avif` or `gif`.',
  })
  @Column({ type: 'varchar', length: 8 })
  format: ImageFormat;

  @Field(() => Int, {
    description: 'The size of every stored file of the image together, which the quota counts.',
  })
  @Column({ type: 'integer' })
  bytes: number;

  /** The stored files besides `original.*`, resolved to `variants` with their URLs. */
  @Column({
    name: 'variants',
    type: 'text',
    transformer: {
      to: (value: StoredVariant[] | undefined) => (value ? JSON.stringify(value) : value),
      from: (value: string | null) => (value ? (JSON.parse(value) as StoredVariant[]) : []),
    },
  })
  storedVariants: StoredVariant[];

  @Field()
  @Column({ name: 'created_at' })
  createdAt: Date;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id', foreignKeyConstraintName: 'FK_images_owner' })
  protected ownerRow?: User;
}
