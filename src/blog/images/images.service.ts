import { Inject, Injectable, Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';

import { imageKey, IMAGES_PREFIX, originalName, parseImageKey, variantName } from './image-files';
import {
  BlogImagesOptions,
  DEFAULT_IMAGE_MAX_BYTES,
  DEFAULT_IMAGE_MAX_PIXELS,
  DEFAULT_IMAGE_PROCESSING_CONCURRENCY,
  DEFAULT_IMAGE_PROCESSING_QUEUE,
  DEFAULT_IMAGE_QUOTA_BYTES,
} from './image-options';
import { ImageRefusal, ProcessedImage, processImage } from './image-processor';
import { IMAGE_STORAGE, ImageStorage } from './image-storage';
import { Image, IMAGE_ALT_LENGTH, ImageFormat, ImageVariant, StoredVariant } from './image.entity';
import { ImageRow, imagesSql } from './images.sql';
import { ProcessingQueue } from './processing-queue';
import type { BlogModuleOptions } from '../blog-options.interface';
import { BLOG_MODULE_OPTIONS } from '../blog.module-definition';
import {
  badUserInput,
  conflict,
  forbidden,
  messageOf,
  notFound,
  serviceUnavailable,
  tooManyRequests,
  unauthenticated,
} from '../common/errors';
import { PreparedStatements, Sql, SqlRunner, toDate } from '../common/sql';
import { isUuid, newId } from '../common/uuid';
import { hasLoneSurrogate } from '../common/validation';
import { isAdmin } from '../users/roles';
import type { User } from '../users/user.entity';
import type { Viewer } from '../users/viewer';

/** The limits of an upload, every default applied. */
export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
  quotaBytes: number;
  processingQueue: number;
  processingConcurrency: number;
}

/** Where an image is used: what a refused deletion lists. */
export interface ImageUses {
  /** Posts whose cover it is. */
  posts: { id: string; title: string }[];
  /** Users whose avatar it is. */
  avatars: { id: string; handle: string }[];
}

/** The shortest lease of an upload (see uploadLeaseMs): the local disk's. */
export const MIN_UPLOAD_LEASE_MS = 15_000;

/**
 * How long an upload on `storage` may take to store its files and write its row: past it, the
 * upload is abandoned, and the sweep removes its files. An upload's files are stored at once, so
 * twice the longest put (`S3_TIMEOUT_MS`, 10 s by default), with room for the row; at least
 * {@link MIN_UPLOAD_LEASE_MS}. Short, so that the files a killed process leaves go soon.
 */
export function uploadLeaseMs(storage: Pick<ImageStorage, 'putTimeoutMs'>): number {
  return Math.max(MIN_UPLOAD_LEASE_MS, 2 * (storage.putTimeoutMs ?? 0) + 5_000);
}

/** Abandoned uploads the sweep reads per statement. */
const ABANDONED_BATCH = 100;
/** When to try again after a refusal of a full queue, in seconds. */
const QUEUE_RETRY_AFTER_S = 5;
/** Files the sweep checks against the rows per statement. */
const SWEEP_BATCH = 500;

const CONTROL = /\p{Cc}/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/** The limits of `options`, every default applied. */
export function imageLimits(options: BlogImagesOptions = {}): ImageLimits {
  return {
    maxBytes: options.maxBytes ?? DEFAULT_IMAGE_MAX_BYTES,
    maxPixels: options.maxPixels ?? DEFAULT_IMAGE_MAX_PIXELS,
    quotaBytes: options.quotaBytes ?? DEFAULT_IMAGE_QUOTA_BYTES,
    processingQueue: options.processingQueue ?? DEFAULT_IMAGE_PROCESSING_QUEUE,
    processingConcurrency: options.processingConcurrency ?? DEFAULT_IMAGE_PROCESSING_CONCURRENCY,
  };
}

/**
 * An alternative text as stored: trimmed, null when empty; BAD_USER_INPUT on `field` for one
 * over {@link IMAGE_ALT_LENGTH} characters or holding control characters, bidirectional controls
 * or lone surrogates (it is one line a reader hears or sees).
 */
export function normaliseAlt(value: string | null | undefined, field = 'alt'): string | null {
  const alt = value?.trim() ?? '';
  if (alt === '') return null;
  if ([...alt].length > IMAGE_ALT_LENGTH) {
    throw badUserInput(`${field} must be at most ${IMAGE_ALT_LENGTH} characters.`, field);
  }
  if (CONTROL.test(alt) || BIDI_CONTROL.test(alt) || hasLoneSurrogate(alt)) {
    throw badUserInput(`${field} may not contain control characters.`, field);
  }
  return alt;
}

function toImage(row: ImageRow): Image {
  return Object.assign(new Image(), {
    id: row.id,
    ownerId: row.ownerId,
    alt: row.alt,
    width: Number(row.width),
    height: Number(row.height),
    format: row.format as ImageFormat,
    bytes: Number(row.bytes),
    storedVariants: JSON.parse(row.variants) as StoredVariant[],
    createdAt: toDate(row.createdAt) as Date,
  });
}

/** The stored-file names of an image: the full-size file, then the variants. */
export function fileNamesOf(image: Pick<Image, 'format' | 'storedVariants'>): string[] {
  return [originalName(image.format), ...image.storedVariants.map((variant) => variant.name)];
}

/**
 * Uploaded images: processing and storing an upload within its owner's quota, reading them,
 * their URLs, changing their alternative text, and deleting them (refused while in use).
 *
 * Writing is an upload (ImageUpload) first, then the files, then the row in the transaction that
 * ends the upload: a failure part-way removes the files it wrote, and the files a crash leaves
 * belong to an upload that {@link sweepAbandonedUploads} removes once its lease has run out.
 * Deleting is the row first, then the files, so that no row ever points to missing files; the
 * files a failure leaves have neither row nor upload, and {@link sweepOrphans} removes them.
 */
@Injectable()
export class ImagesService {
  readonly limits: ImageLimits;
  /** How long an upload may take to store its files and write its row (see uploadLeaseMs). */
  readonly uploadLeaseMs: number;
  private readonly queue: ProcessingQueue;
  private readonly statements: PreparedStatements<typeof imagesSql>;
  private readonly logger = new Logger(ImagesService.name);

  constructor(
    private readonly sql: Sql,
    @Inject(IMAGE_STORAGE) readonly storage: ImageStorage,
    @Inject(BLOG_MODULE_OPTIONS) options: BlogModuleOptions,
  ) {
    this.limits = imageLimits(options.images);
    this.uploadLeaseMs = uploadLeaseMs(storage);
    this.queue = new ProcessingQueue(
      this.limits.processingConcurrency,
      this.limits.processingQueue,
    );
    this.statements = sql.prepare(imagesSql);
  }

  /**
   * A place in the processing queue for one upload, taken before its body is read; throws
   * TOO_MANY_REQUESTS when the queue is full. Give it back with `release()` whatever happens.
   */
  admit(): { run<T>(work: () => Promise<T>): Promise<T>; release(): void } {
    try {
      return this.queue.admit();
    } catch (error) {
      throw tooManyRequests(messageOf(error), QUEUE_RETRY_AFTER_S);
    }
  }

  /** Refuses (413) an owner who has used their whole quota already, before their upload is read. */
  async checkQuota(ownerId: string): Promise<void> {
    const used = await this.usedBytes(ownerId);
    if (used >= this.limits.quotaBytes) throw this.quotaRefusal(used);
  }

  /**
   * Processes `input` (see processImage) on a turn of `place`, stores its files, then writes its
   * row, within the owner's quota (413 when it does not fit, checked again in the transaction
   * that writes the row, so that concurrent uploads cannot pass it together). The upload is
   * recorded before its first file and ended with its row, within {@link uploadLeaseMs}
   * (SERVICE_UNAVAILABLE past it). Anything that fails once files are written removes them.
   */
  async upload(
    owner: User,
    input: Buffer,
    alt: string | null,
    place: { run<T>(work: () => Promise<T>): Promise<T> },
  ): Promise<Image> {
    const processed = await place.run(() => processImage(input, this.limits.maxPixels));
    const files = [processed.original, ...processed.variants];
    const bytes = files.reduce((sum, file) => sum + file.body.length, 0);
    const used = await this.usedBytes(owner.id);
    if (used + bytes > this.limits.quotaBytes) throw this.quotaRefusal(used, bytes);

    const image = this.newImage(owner.id, processed, alt, bytes);
    const keys = files.map((file) => imageKey(image.id, file.name));
    await this.sql.run(this.statements.beginUpload, {
      id: image.id,
      expiresAt: new Date(Date.now() + this.uploadLeaseMs),
    });
    try {
      await Promise.all(
        files.map((file, index) => this.storage.put(keys[index]!, file.body, file.contentType)),
      );
      await this.sql.transaction(async (tx) => {
        if (!(await tx.one(this.statements.lockOwner, { id: owner.id }))) {
          throw unauthenticated("The access token's account no longer exists.");
        }
        if ((await tx.run(this.statements.endUpload, { id: image.id })) === 0) {
          throw serviceUnavailable('Storing the image took too long. Try again.');
        }
        const row = await tx.one(this.statements.usedBytes, { ownerId: owner.id });
        const usedNow = Number(row?.bytes ?? 0);
        if (usedNow + bytes > this.limits.quotaBytes) throw this.quotaRefusal(usedNow, bytes);
        await tx.run(this.statements.insert, {
          id: image.id,
          ownerId: image.ownerId,
          alt: image.alt,
          width: image.width,
          height: image.height,
          format: image.format,
          bytes: image.bytes,
          variants: JSON.stringify(image.storedVariants),
          createdAt: image.createdAt,
        });
      });
    } catch (error) {
      await this.abandon(image.id, keys);
      throw error;
    }
    return image;
  }

  /**
   * Removes the files of a failed upload, then ends it. When they cannot all be removed, the
   * upload stays, and the sweep removes them once its lease has run out.
   */
  private async abandon(id: string, keys: readonly string[]): Promise<void> {
    if (!(await this.removeFiles(keys))) return;
    try {
      await this.sql.run(this.statements.endUpload, { id });
    } catch (error) {
      this.logger.warn(`Could not end the failed upload of image ${id}: ${messageOf(error)}`);
    }
  }

  /** An image by id, or null (also for a malformed id). */
  async find(id: string): Promise<Image | null> {
    if (!isUuid(id)) return null;
    const row = await this.sql.one(this.statements.byId, { id: id.toLowerCase() });
    return row ? toImage(row) : null;
  }

  /** The images of `ids`, in their order, null for those that do not exist. */
  async findByIds(ids: readonly string[]): Promise<(Image | null)[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const rows = valid.length > 0 ? await this.sql.all(this.statements.byIds, { ids: valid }) : [];
    const byId = new Map(rows.map((row) => [row.id, toImage(row)]));
    return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /** The image `id` when `ownerId` owns it, else null. */
  async ownedBy(ownerId: string, id: string): Promise<Image | null> {
    const image = await this.find(id);
    return image?.ownerId === ownerId ? image : null;
  }

  /** A page of one owner's images, newest first, plus whether more follow. */
  async page(
    ownerId: string,
    first: number,
    after: { createdAt: Date; id: string } | null,
  ): Promise<{ images: Image[]; hasNextPage: boolean }> {
    const parameters = { ownerId, first: first + 1 };
    const rows =
      first === 0
        ? []
        : after
          ? await this.sql.all(this.statements.pageAfter, {
              ...parameters,
              afterCreatedAt: after.createdAt,
              afterId: after.id,
            })
          : await this.sql.all(this.statements.page, parameters);
    return { images: rows.slice(0, first).map(toImage), hasNextPage: rows.length > first };
  }

  /** How many images `ownerId` has. */
  async count(ownerId: string): Promise<number> {
    return Number((await this.sql.one(this.statements.count, { ownerId }))?.count ?? 0);
  }

  /** The absolute URL of the full-size file (no `name`) or of the named file of `image`. */
  urlOf(image: Pick<Image, 'id' | 'format'>, name?: string): string {
    return this.storage.publicUrl(imageKey(image.id, name ?? originalName(image.format)));
  }

  /**
   * The URL of the image as an avatar: its 320-wide variant in its own format, or its full-size
   * file when it is not wider than 320.
   */
  avatarUrlOf(image: Image): string {
    const name = variantName(320, image.format);
    const found = image.storedVariants.some((variant) => variant.name === name);
    return this.urlOf(image, found ? name : undefined);
  }

  /** The variants of `image` with their URLs, narrowest first, WebP before the image's own format. */
  variantsOf(image: Image): ImageVariant[] {
    return image.storedVariants.map((variant) => ({
      width: variant.width,
      height: variant.height,
      format: variant.format,
      url: this.urlOf(image, variant.name),
    }));
  }

  /** Changes the alternative text of an image; its owner or an admin only. */
  async updateAlt(id: string, alt: string, viewer: Viewer): Promise<Image> {
    const user = this.signedIn(viewer, 'change an image');
    const image = await this.find(id);
    if (!image) throw notFound('Image');
    if (image.ownerId !== user.id && !isAdmin(user)) {
      throw forbidden("Only the image's owner or an admin may change it.");
    }
    image.alt = normaliseAlt(alt);
    await this.sql.run(this.statements.updateAlt, { id: image.id, alt: image.alt as string });
    return image;
  }

  /**
   * Deletes an image, its owner or an admin only: its row, then its files (a file left by a
   * failure is the sweep's). An image in use is refused with CONFLICT, and `extensions.usedBy`
   * lists where: the posts whose cover it is (id and title) and the users whose avatar it is.
   */
  async deleteImage(id: string, viewer: Viewer): Promise<string> {
    const user = this.signedIn(viewer, 'delete an image');
    if (!isUuid(id)) throw notFound('Image');
    const image = await this.sql.transaction(async (tx) => {
      const row = await tx.one(this.statements.lockById, { id: id.toLowerCase() });
      if (!row) throw notFound('Image');
      const found = toImage(row);
      if (found.ownerId !== user.id && !isAdmin(user)) {
        throw forbidden("Only the image's owner or an admin may delete it.");
      }
      const uses: ImageUses = {
        posts: await tx.all(this.statements.coverOf, { id: found.id }),
        avatars: await tx.all(this.statements.avatarOf, { id: found.id }),
      };
      if (uses.posts.length > 0 || uses.avatars.length > 0) throw inUse(uses);
      await tx.run(this.statements.delete, { id: found.id });
      return found;
    });
    await this.removeFiles(fileNamesOf(image).map((name) => imageKey(image.id, name)));
    return image.id;
  }

  /**
   * Removes the files of the uploads whose lease ran out before `now` (their process was killed,
   * or they took too long and will fail): each is taken from its uploader first, which then
   * cannot write its row. Returns how many files it removed.
   */
  async sweepAbandonedUploads(
    now = new Date(),
    shouldStop: () => boolean = () => false,
  ): Promise<number> {
    let removed = 0;
    for (;;) {
      const uploads = await this.sql.all(this.statements.abandonedUploads, {
        now,
        limit: ABANDONED_BATCH,
      });
      for (const { id } of uploads) {
        if (shouldStop()) return removed;
        if ((await this.sql.run(this.statements.claimAbandoned, { id, now })) === 0) continue;
        const keys: string[] = [];
        for await (const file of this.storage.list(imageKey(id, ''))) keys.push(file.key);
        // A failure leaves files with neither row nor upload: sweepOrphans removes them.
        if (keys.length > 0) await this.storage.remove(keys);
        removed += keys.length;
      }
      if (uploads.length < ABANDONED_BATCH) return removed;
    }
  }

  /**
   * Removes the stored files whose image has neither a row nor an upload under way: those of
   * deletions and failed uploads whose files could not all be removed, and of abandoned uploads
   * that the sweep could not finish. Every upload is recorded before its first file, so no file
   * being written is taken. Returns how many files it removed.
   */
  async sweepOrphans(shouldStop: () => boolean = () => false): Promise<number> {
    let removed = 0;
    let batch = new Map<string, string[]>();
    const flush = async () => {
      const ids = [...batch.keys()];
      const rows = await this.sql.all(this.statements.kept, { ids });
      const kept = new Set(rows.map((row) => row.id));
      const orphans = ids.filter((id) => !kept.has(id)).flatMap((id) => batch.get(id)!);
      if (orphans.length > 0) await this.storage.remove(orphans);
      removed += orphans.length;
      batch = new Map();
    };
    for await (const file of this.storage.list(IMAGES_PREFIX)) {
      if (shouldStop()) break;
      const parsed = parseImageKey(file.key);
      if (!parsed) continue;
      batch.set(parsed.id, [...(batch.get(parsed.id) ?? []), file.key]);
      if (batch.size >= SWEEP_BATCH) await flush();
    }
    if (batch.size > 0 && !shouldStop()) await flush();
    return removed;
  }

  private newImage(
    ownerId: string,
    processed: ProcessedImage,
    alt: string | null,
    bytes: number,
  ): Image {
    return Object.assign(new Image(), {
      id: newId(),
      ownerId,
      alt,
      width: processed.width,
      height: processed.height,
      format: processed.format,
      bytes,
      storedVariants: processed.variants.map(({ name, width, height, format, body }) => ({
        width,
        height,
        format,
        name,
        bytes: body.length,
      })),
      createdAt: new Date(),
    });
  }

  private async usedBytes(ownerId: string): Promise<number> {
    return Number((await this.sql.one(this.statements.usedBytes, { ownerId }))?.bytes ?? 0);
  }

  private quotaRefusal(used: number, adding = 0): ImageRefusal {
    const { quotaBytes } = this.limits;
    const message =
      adding > 0
        ? `This image takes ${adding} bytes stored; ${Math.max(0, quotaBytes - used)} of your ${quotaBytes} bytes are left. Delete images to make room.`
        : `You have used your ${quotaBytes} bytes of images. Delete images to make room.`;
    return new ImageRefusal(413, message, 'quota');
  }

  private signedIn(viewer: Viewer, what: string): User {
    if (!viewer) throw unauthenticated(`You must be signed in to ${what}.`);
    return viewer;
  }

  /**
   * Removes files, logging (not throwing) a failure, and tells whether it removed them all: the
   * sweep removes what is left.
   */
  private async removeFiles(keys: readonly string[]): Promise<boolean> {
    try {
      await this.storage.remove(keys);
      return true;
    } catch (error) {
      this.logger.warn(`Could not remove ${keys.length} image files: ${messageOf(error)}`);
      return false;
    }
  }

  // Added by the uses of images (issue 66, "where images are used"): covers, avatars, accounts.
  /**
   * The stored id of image `id` once it is found to be `ownerId`'s: NOT_FOUND for no image,
   * FORBIDDEN saying `refusal` for someone else's. Read on `sql` and locked until its transaction
   * ends (PostgreSQL), as deleteImage locks it before it looks for its uses: of a deletion and a
   * write that uses the image, one waits for the other, so that the deletion sees the use or the
   * write sees the image gone. For setting a cover or an avatar, in the transaction that does.
   */
  async holdForUse(sql: SqlRunner, id: string, ownerId: string, refusal: string): Promise<string> {
    const row = isUuid(id)
      ? await sql.one(this.statements.lockById, { id: id.toLowerCase() })
      : null;
    if (!row) throw notFound('Image');
    if (row.ownerId !== ownerId) throw forbidden(refusal);
    return row.id;
  }

  /**
   * Runs `deleteOwner`, which deletes the user `ownerId` (the cascade takes their images' rows),
   * in a transaction that first locks the owner, as an upload does, and reads their images; then
   * removes those images' files, once the rows are gone (files a crash leaves are the sweep's).
   * All or nothing for the rows; an upload that races it either lands before (and is read) or is
   * refused.
   */
  async deleteOwnerWithImages<T>(
    ownerId: string,
    deleteOwner: (sql: SqlRunner) => Promise<T>,
  ): Promise<T> {
    const { result, images } = await this.sql.transaction(async (tx) => {
      await tx.one(this.statements.lockOwner, { id: ownerId });
      const rows = await tx.all(this.statements.byOwner, { ownerId });
      return { result: await deleteOwner(tx), images: rows.map(toImage) };
    });
    const keys = images.flatMap((image) =>
      fileNamesOf(image).map((name) => imageKey(image.id, name)),
    );
    if (keys.length > 0) await this.removeFiles(keys);
    return result;
  }
}

/** CONFLICT for an image in use, listing where in `extensions.usedBy`. */
function inUse(uses: ImageUses): GraphQLError {
  const where = [
    ...uses.posts.map((post) => `the cover of "${post.title}"`),
    ...uses.avatars.map((user) => `the avatar of @${user.handle}`),
  ];
  return conflict(`The image is in use: ${where.join(', ')}. Stop using it first.`, undefined, {
    usedBy: uses,
  });
}
