import sharp from 'sharp';

import { ImageRefusal, processImage, readImageHeader } from './image-processor';

const MAX_PIXELS = 40_000_000;

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) =>
      error instanceof ImageRefusal ? { status: error.status, limit: error.limit } : error,
  );

describe('image processing', () => {
  it('should turn an image upright by its EXIF orientation and keep no metadata', async () => {
    const sideways = await sharp({
      create: { width: 600, height: 400, channels: 3, background: '#888' },
    })
      .withMetadata({ orientation: 8 })
      .withExif({ IFD0: { Artist: 'Someone' } })
      .jpeg()
      .toBuffer();
    expect(await readImageHeader(sideways, MAX_PIXELS)).toEqual({
      format: 'jpeg',
      width: 400,
      height: 600,
    });
    const image = await processImage(sideways, MAX_PIXELS);
    expect([image.width, image.height]).toEqual([400, 600]);
    const metadata = await sharp(image.original.body).metadata();
    expect([metadata.width, metadata.height, metadata.exif, metadata.orientation]).toEqual([
      400,
      600,
      undefined,
      undefined,
    ]);
    expect(image.variants.map((file) => file.name)).toEqual(['320.webp', '320.jpg']);
  });

  it('should make no variant of an image no wider than 320, and WebP ones once for a WebP', async () => {
    const small = await sharp({
      create: { width: 320, height: 20, channels: 3, background: 'red' },
    })
      .png()
      .toBuffer();
    expect((await processImage(small, MAX_PIXELS)).variants).toEqual([]);
    const webp = await sharp({
      create: { width: 2000, height: 20, channels: 3, background: 'red' },
    })
      .webp()
      .toBuffer();
    const made = await processImage(webp, MAX_PIXELS);
    expect(made.variants.map((file) => `${file.name} ${file.width}x${file.height}`)).toEqual([
      '320.webp 320x3',
      '640.webp 640x6',
      '1280.webp 1280x13',
      '1920.webp 1920x19',
    ]);
  });

  it('should leave out WebP variants taller than WebP can hold', async () => {
    const tall = await sharp({
      create: { width: 330, height: 20_000, channels: 3, background: 'blue' },
    })
      .png()
      .toBuffer();
    const made = await processImage(tall, MAX_PIXELS);
    expect(made.variants.map((file) => `${file.name} ${file.height}`)).toEqual(['320.png 19394']);
  });

  it('should refuse an image over the pixel limit from its header (413)', async () => {
    const image = await sharp({
      create: { width: 100, height: 100, channels: 3, background: 'red' },
    })
      .png()
      .toBuffer();
    expect(await refusalOf(processImage(image, 9_999))).toEqual({
      status: 413,
      limit: 'maxPixels',
    });
    expect(await refusalOf(processImage(image, 10_000))).toBeNull();
  });

  it('should refuse what is not a JPEG, PNG, WebP, AVIF or GIF (415), whatever it claims', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
    const tiff = await sharp({ create: { width: 9, height: 9, channels: 3, background: 'red' } })
      .tiff()
      .toBuffer();
    for (const file of [svg, tiff, Buffer.from('GIF89a'), Buffer.alloc(0)]) {
      expect(await refusalOf(processImage(file, MAX_PIXELS))).toEqual({
        status: 415,
        limit: undefined,
      });
    }
  });

  it('should refuse a PNG cut short (415)', async () => {
    const png = await sharp({
      create: {
        width: 300,
        height: 300,
        channels: 3,
        background: 'black',
        noise: { type: 'gaussian', mean: 128, sigma: 50 },
      },
    })
      .png()
      .toBuffer();
    const cut = png.subarray(0, png.length - 2000);
    expect(await refusalOf(processImage(cut, MAX_PIXELS))).toEqual({
      status: 415,
      limit: undefined,
    });
  });
});
