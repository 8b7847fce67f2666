import type { ImageFormat } from './image.entity';
import { isUuid } from '../common/uuid';

/** The formats the service accepts, decoded from the upload's bytes, and stores. */
export const IMAGE_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp', 'avif', 'gif'];

/** The file extension of each format. */
export const EXTENSIONS: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
};

/** The Content-Type each stored file is served with. */
export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

const FORMAT_OF_EXTENSION = new Map(
  Object.entries(EXTENSIONS).map(([format, ext]) => [ext, format as ImageFormat]),
);

/** The widths of the variants, each made only when the image is wider. */
export const VARIANT_WIDTHS: readonly number[] = [320, 640, 1280, 1920];

/** Where every image file lives: `images/{id}/{name}`. */
export const IMAGES_PREFIX = 'images/';

/** The name of an image's full-size file: `original.jpg`. */
export const originalName = (format: ImageFormat): string => `original.${EXTENSIONS[format]}`;

/** The name of a variant's file: `640.webp`. */
export const variantName = (width: number, format: ImageFormat): string =>
  `${width}.${EXTENSIONS[format]}`;

/** The storage key of a file of an image. */
export const imageKey = (id: string, name: string): string => `${IMAGES_PREFIX}${id}/${name}`;

const FILE_NAME = /^(original|[1-9][0-9]{0,4})\.([a-z]{3,4})$/;

/**
 * The format of a file name an image may have (`original.jpg`, `640.webp`), or null for any
 * other name: the strict check of a path's last segment before it reaches the disk.
 */
export function formatOfFileName(name: string): ImageFormat | null {
  const match = FILE_NAME.exec(name);
  return match ? (FORMAT_OF_EXTENSION.get(match[2]!) ?? null) : null;
}

/** True for an image id as the service makes them: a UUID in lower case. */
export const isImageId = (id: string): boolean => isUuid(id) && id === id.toLowerCase();

/**
 * The image id and file name of a storage key, or null when the key is not an image file's
 * (a temporary file, say; the sweep still reads its id from the folder).
 */
export function parseImageKey(key: string): { id: string; name: string | null } | null {
  if (!key.startsWith(IMAGES_PREFIX)) return null;
  const [id, name, ...rest] = key.slice(IMAGES_PREFIX.length).split('/');
  if (!id || !isImageId(id) || rest.length > 0) return null;
  return { id, name: name && formatOfFileName(name) ? name : null };
}
