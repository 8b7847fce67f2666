import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An upload whose files are being stored (see ImagesService.upload): written before its first
 * file, and deleted in the transaction that writes its image's row, or once a failed upload has
 * removed its files. A stored file whose image has neither a row nor an upload here is an orphan
 * at once; an upload still here at `expiresAt` was abandoned (its process was killed, say), and
 * the sweep removes its files.
 */
@Entity('image_uploads')
@Index('IDX_image_uploads_expires', ['expiresAt'])
export class ImageUpload {
  /** The id its image will have. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'expires_at' })
  expiresAt: Date;
}
