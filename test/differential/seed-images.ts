import type { EntityManager } from 'typeorm';

import { BOB, CYD, P2 } from './seed';
import { Image, ImageFormat, StoredVariant } from '../../src/blog/images/image.entity';

// The seed's ids are read when seedImages runs, never when this module loads: seed.ts imports
// this file while it is itself loading.

/** An id of the seed's form (see seed.ts). */
const id = (n: string) => `01920000-0000-7000-8000-${n.padStart(12, '0')}`;

/**
 * Uploaded images of the seed, as rows only: no file is stored, and none is needed, as a cover's
 * or an avatar's URL is made from the row (the storage's public base, the id and a file name).
 * I1 is Bob's JPEG, P2's cover; I2 is Cyd's PNG narrower than 320, her avatar; I3 is Bob's JPEG
 * that nothing uses.
 */
export const I1 = id('1f1');
export const I2 = id('1f2');
export const I3 = id('1f3');

const variant = (
  width: number,
  height: number,
  format: ImageFormat,
  bytes: number,
): StoredVariant => ({
  width,
  height,
  format,
  name: `${width}.${format === 'jpeg' ? 'jpg' : format}`,
  bytes,
});

/** Writes the images of the seed and their uses; for resetToSeed, after the users and posts. */
export async function seedImages(manager: EntityManager): Promise<void> {
  const at = (second: number) => new Date(Date.UTC(2025, 0, 31, 12, 0, second, 310 + second));
  const images = [
    {
      id: I1,
      ownerId: BOB,
      alt: 'A lake at dawn',
      width: 1200,
      height: 800,
      format: 'jpeg' as const,
      variants: [
        variant(320, 213, 'webp', 9_000),
        variant(320, 213, 'jpeg', 12_000),
        variant(640, 427, 'webp', 30_000),
        variant(640, 427, 'jpeg', 41_000),
      ],
      original: 150_000,
    },
    {
      id: I2,
      ownerId: CYD,
      alt: null,
      width: 300,
      height: 200,
      format: 'png',
      variants: [],
      original: 20_000,
    },
    {
      id: I3,
      ownerId: BOB,
      alt: null,
      width: 400,
      height: 300,
      format: 'jpeg',
      variants: [variant(320, 240, 'webp', 8_000), variant(320, 240, 'jpeg', 11_000)],
      original: 25_000,
    },
  ];
  await manager.insert(
    Image,
    images.map(({ original, variants, ...image }, n) => ({
      ...image,
      format: image.format as ImageFormat,
      bytes: original + variants.reduce((sum, v) => sum + v.bytes, 0),
      storedVariants: variants,
      createdAt: at(n),
    })),
  );
  await manager.update('Post', { id: P2 }, { coverImageId: I1, coverAlt: 'The lake' });
  await manager.update('User', { id: CYD }, { avatarImageId: I2 });
}
