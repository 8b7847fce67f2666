import type { CorpusLine } from './corpus';
import { MISSING } from './seed';
import { I1, I2, I3 } from './seed-images';

const encode = (text: string) => Buffer.from(text).toString('base64url');
const IMAGE = 'id url width height format alt bytes createdAt variants { width height format url }';
const PAGE = `totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${IMAGE} } }`;
/** The cursor of I1, Bob's first image (seed-images.ts makes it at 12:00:00.310). */
const AFTER_I1 = encode(`image:${Date.UTC(2025, 0, 31, 12, 0, 0, 310)}:${I1}`);

/** Uploaded images (issue 66): the image fields, the viewer's images, alt texts and deletion. */
// prettier-ignore
export const uploading: CorpusLine[] = [
  ['image: anonymous', `{ image(id: "${I1}") { ${IMAGE} } }`],
  ['image: narrower than 320, read by another', `{ image(id: "${I2}") { ${IMAGE} } }`, null, 'user'],
  ['image: missing and malformed', `{ a: image(id: "${MISSING}") { id } b: image(id: "nope") { id } }`],
  ['myImages: Bob', `{ myImages { ${PAGE} } }`, null, 'user'],
  ['myImages: a page of one, then after it', `{ a: myImages(first: 1) { ${PAGE} } b: myImages(first: 1, after: "${AFTER_I1}") { edges { node { id } } } }`, null, 'user'],
  ['myImages: none', '{ myImages { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }', null, 'quiet'],
  ['myImages: first 0 and a bad cursor', '{ a: myImages(first: 0) { totalCount edges { cursor } } b: myImages(after: "bm9wZQ") { totalCount } }', null, 'user'],
  ['myImages: first 101', '{ myImages(first: 101) { totalCount } }', null, 'user'],
  ['myImages: anonymous', '{ myImages { totalCount } }'],
  ['updateImageAlt: the owner', `mutation { updateImageAlt(id: "${I3}", alt: "  A cat asleep  ") { ${IMAGE} } }`, null, 'user'],
  ['updateImageAlt: empty clears it', `mutation { updateImageAlt(id: "${I1}", alt: " ") { id alt } }`, null, 'user'],
  ['updateImageAlt: an admin', `mutation { updateImageAlt(id: "${I2}", alt: "Cyd") { id alt } }`, null, 'admin'],
  ['updateImageAlt: another user', `mutation { updateImageAlt(id: "${I1}", alt: "Mine") { id } }`, null, 'other'],
  ['updateImageAlt: too long', `mutation { updateImageAlt(id: "${I1}", alt: "${'x'.repeat(1001)}") { id } }`, null, 'user'],
  ['updateImageAlt: a line break', `mutation { updateImageAlt(id: "${I1}", alt: "a\\nb") { id } }`, null, 'user'],
  ['updateImageAlt: missing', `mutation { updateImageAlt(id: "${MISSING}", alt: "x") { id } }`, null, 'user'],
  ['updateImageAlt: anonymous', `mutation { updateImageAlt(id: "${I1}", alt: "x") { id } }`],
  ['deleteImage: unused, by its owner', `mutation { deleteImage(id: "${I3}") }`, null, 'user'],
  ['deleteImage: a cover', `mutation { deleteImage(id: "${I1}") }`, null, 'user'],
  ['deleteImage: an avatar, by an admin', `mutation { deleteImage(id: "${I2}") }`, null, 'admin'],
  ['deleteImage: another user', `mutation { deleteImage(id: "${I3}") }`, null, 'other'],
  ['deleteImage: missing and malformed', `mutation { a: deleteImage(id: "${MISSING}") b: deleteImage(id: "nope") }`, null, 'user'],
  ['deleteImage: anonymous', `mutation { deleteImage(id: "${I3}") }`],
  ['deleteImage: twice in one operation', `mutation { a: deleteImage(id: "${I3}") b: deleteImage(id: "${I3}") }`, null, 'user'],
];
