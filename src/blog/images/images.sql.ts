import { statement } from '../common/sql';
import { lockUser } from '../users/users.sql';

/** An image as the statements read it; `variants` is the JSON text of its stored variants. */
export interface ImageRow {
  id: string;
  ownerId: string;
  alt: string | null;
  width: number;
  height: number;
  format: string;
  bytes: number;
  variants: string;
  createdAt: Date | string;
}

/** A page of one owner's images: its size, and the image it continues after. */
export interface ImagePageParameters {
  ownerId: string;
  first: number;
  afterCreatedAt?: Date;
  afterId?: string;
}

const COLUMNS =
  'i.id, i.owner_id AS "ownerId", i.alt, i.width, i.height, i.format, i.bytes, i.variants, ' +
  'i.created_at AS "createdAt"';

/** The start of the sweep's look for abandoned uploads, which runs outside every request. */
export const ABANDONED_UPLOADS = 'SELECT u.id FROM image_uploads u WHERE u.expires_at <';

/** Newest first, read along the (owner, created_at, id) index. */
const page = (after: boolean) =>
  statement<ImagePageParameters, ImageRow>(
    `SELECT ${COLUMNS} FROM images i WHERE i.owner_id = :ownerId` +
      (after ? ' AND (i.created_at, i.id) < (:afterCreatedAt, :afterId)' : '') +
      ' ORDER BY i.created_at DESC, i.id DESC LIMIT :first',
  );

/**
 * The statements of images. An upload's row is written after its files, in a transaction that
 * first locks its owner's row (PostgreSQL; SQLite's transactions already run one at a time), so
 * that two uploads of one owner cannot both pass a quota that fits one.
 */
export const imagesSql = {
  lockOwner: lockUser,
  usedBytes: statement<{ ownerId: string }, { bytes: string | number | null }>(
    'SELECT COALESCE(SUM(i.bytes), 0) AS bytes FROM images i WHERE i.owner_id = :ownerId',
  ),
  insert: statement<Omit<ImageRow, 'createdAt'> & { createdAt: Date }>(
    'INSERT INTO images (id, owner_id, alt, width, height, format, bytes, variants, created_at) ' +
      'VALUES (:id, :ownerId, :alt, :width, :height, :format, :bytes, :variants, :createdAt)',
  ),
  byId: statement<{ id: string }, ImageRow>(`SELECT ${COLUMNS} FROM images i WHERE i.id = :id`),
  byIds: statement<{ ids: readonly string[] }, ImageRow>(
    `SELECT ${COLUMNS} FROM images i WHERE i.id IN (:...ids)`,
  ),
  /** The image, locked until the transaction ends (PostgreSQL), for its deletion. */
  lockById: statement<{ id: string }, ImageRow>({
    sqlite: `SELECT ${COLUMNS} FROM images i WHERE i.id = :id`,
    postgres: `SELECT ${COLUMNS} FROM images i WHERE i.id = :id FOR UPDATE`,
  }),
  byOwner: statement<{ ownerId: string }, ImageRow>(
    `SELECT ${COLUMNS} FROM images i WHERE i.owner_id = :ownerId`,
  ),
  /**
   * The ids of `ids` that have a row or an upload under way. One statement, so one snapshot: an
   * upload's row is written in the transaction that ends its upload, so that it is found as one
   * or the other.
   */
  kept: statement<{ ids: readonly string[] }, { id: string }>(
    'SELECT i.id FROM images i WHERE i.id IN (:...ids) ' +
      'UNION ALL SELECT u.id FROM image_uploads u WHERE u.id IN (:...ids)',
  ),
  beginUpload: statement<{ id: string; expiresAt: Date }>(
    'INSERT INTO image_uploads (id, expires_at) VALUES (:id, :expiresAt)',
  ),
  endUpload: statement<{ id: string }>('DELETE FROM image_uploads WHERE id = :id'),
  /** Uploads still under way at `now` past their end: abandoned, the oldest first. */
  abandonedUploads: statement<{ now: Date; limit: number }, { id: string }>(
    `${ABANDONED_UPLOADS} :now ORDER BY u.expires_at LIMIT :limit`,
  ),
  /** Takes an abandoned upload away from its uploader, which then cannot write its row. */
  claimAbandoned: statement<{ id: string; now: Date }>(
    'DELETE FROM image_uploads WHERE id = :id AND expires_at < :now',
  ),
  page: page(false),
  pageAfter: page(true),
  count: statement<{ ownerId: string }, { count: string | number }>(
    'SELECT COUNT(*) AS count FROM images i WHERE i.owner_id = :ownerId',
  ),
  updateAlt: statement<{ id: string; alt: string }>('UPDATE images SET alt = :alt WHERE id = :id'),
  delete: statement<{ id: string }>('DELETE FROM images WHERE id = :id'),
  /** The posts whose cover the image is, a few: what a refused deletion lists. */
  coverOf: statement<{ id: string }, { id: string; title: string }>(
    'SELECT p.id, p.title FROM posts p WHERE p.cover_image_id = :id ORDER BY p.id LIMIT 20',
  ),
  /** The users whose avatar the image is. */
  avatarOf: statement<{ id: string }, { id: string; handle: string }>(
    'SELECT u.id, u.handle FROM users u WHERE u.avatar_image_id = :id ORDER BY u.id LIMIT 20',
  ),
};
