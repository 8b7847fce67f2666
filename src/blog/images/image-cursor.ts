import { cursorGroups, opaqueCursor } from '../common/pagination';
import { isUuid } from '../common/uuid';

/** Where a page of images ends: when the last image on it was uploaded, and its id. */
export interface ImageCursor {
  createdAt: Date;
  id: string;
}

/** `image:<createdAt in ms since 1970>:<id>`; 13 digits reach the year 2286. */
const CURSOR = /^image:(\d{1,13}):([0-9a-fA-F-]{36})$/;

/** An opaque Relay cursor: the image's place in the order, so the next page needs no lookup. */
export function encodeImageCursor(cursor: ImageCursor): string {
  return opaqueCursor(`image:${cursor.createdAt.getTime()}:${cursor.id}`);
}

/** The cursor made by {@link encodeImageCursor}; anything else is BAD_USER_INPUT. */
export function decodeImageCursor(cursor: string): ImageCursor {
  const [at, id] = cursorGroups(
    cursor,
    CURSOR,
    'after must be an endCursor of a previous page of images.',
    ([, id]) => isUuid(id!),
  );
  return { createdAt: new Date(Number(at)), id: id!.toLowerCase() };
}
