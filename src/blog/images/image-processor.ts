import type { Metadata, Sharp, SharpOptions } from 'sharp';

import {
  CONTENT_TYPES,
  IMAGE_FORMATS,
  originalName,
  VARIANT_WIDTHS,
  variantName,
} from './image-files';
import type { ImageFormat } from './image.entity';

/** Why an upload is refused before anything is stored: 413 (too large) or 415 (not an image). */
export class ImageRefusal extends Error {
  constructor(
    readonly status: 413 | 415,
    message: string,
    /** The limit passed, for a 413: `maxPixels`. */
    readonly limit?: string,
  ) {
    super(message);
  }
}

/** One file of a processed image, ready to store. */
export interface ProcessedFile {
  name: string;
  body: Buffer;
  contentType: string;
  width: number;
  height: number;
  format: ImageFormat;
}

/** An upload, decoded and re-encoded: its full-size file and its variants. */
export interface ProcessedImage {
  format: ImageFormat;
  width: number;
  height: number;
  original: ProcessedFile;
  variants: ProcessedFile[];
}

/** What the header says, before any pixel is decoded. */
export interface ImageHeader {
  format: ImageFormat;
  /** Upright: the EXIF orientation applied. */
  width: number;
  height: number;
}

const NOT_AN_IMAGE = 'The file is not a JPEG, PNG, WebP, AVIF or GIF image.';
const INCOMPLETE = 'The file is not a whole, readable JPEG, PNG, WebP, AVIF or GIF image.';

type SharpFactory = typeof import('sharp');

let loading: Promise<SharpFactory> | null = null;

/**
 * sharp, loaded with the first upload: libvips is native code and memory that a service nobody
 * uploads to need not hold.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}

/** The widest side WebP can hold: a variant taller than this is not made in WebP. */
const WEBP_MAX_SIDE = 16_383;

/** The format of a decoder sharp names, when the service accepts it; HEIC (HEVC) is not. */
function acceptedFormat(metadata: Metadata): ImageFormat | null {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : null;
  const format = metadata.format as string;
  return (IMAGE_FORMATS as readonly string[]).includes(format) ? (format as ImageFormat) : null;
}

/**
 * Reads the header of `input` (no pixel is decoded) and refuses what the service does not take:
 * a type other than JPEG, PNG, WebP, AVIF or GIF, whatever the file's name or Content-Type
 * said (415), and an image of more than `maxPixels` pixels (413), so that a decompression bomb
 * costs a header read. Only the first frame of an animated image counts: it is all that is kept.
 */
export async function readImageHeader(input: Buffer, maxPixels: number): Promise<ImageHeader> {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefusal(415, NOT_AN_IMAGE);
  }
  const format = acceptedFormat(metadata);
  if (!format) throw new ImageRefusal(415, NOT_AN_IMAGE);
  const { width, height } = metadata.autoOrient ?? metadata;
  const frameHeight = metadata.pageHeight ?? height;
  if (!(width > 0) || !(frameHeight > 0)) throw new ImageRefusal(415, INCOMPLETE);
  if (width * frameHeight > maxPixels) {
    throw new ImageRefusal(
      413,
      `The image is ${width} × ${frameHeight} pixels; at most ${maxPixels} pixels are accepted.`,
      'maxPixels',
    );
  }
  return { format, width, height: frameHeight };
}

/** The encoder of each format, with the settings every file of that format gets. */
function encode(pipeline: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: 82, progressive: true });
    case 'png':
      return pipeline.png({ compressionLevel: 6 });
    case 'webp':
      return pipeline.webp({ quality: 80, effort: 4 });
    case 'avif':
      return pipeline.avif({ quality: 50, effort: 2 });
    case 'gif':
      return pipeline.gif();
  }
}

async function toFile(pipeline: Sharp, name: string, format: ImageFormat): Promise<ProcessedFile> {
  const { data, info } = await encode(pipeline, format).toBuffer({ resolveWithObject: true });
  return {
    name,
    body: data,
    contentType: CONTENT_TYPES[format],
    width: info.width,
    height: info.height,
    format,
  };
}

/**
 * Decodes `input` and re-encodes it: turned upright by its EXIF orientation, in sRGB, with no
 * metadata at all (no EXIF, GPS, XMP, IPTC, ICC profile or comment: sharp writes none unless
 * asked), in its own format; and, for each of 320, 640, 1280 and 1920 pixels narrower than it,
 * a variant in WebP and one in its own format. An animated GIF or WebP keeps its first frame.
 * Every step runs on sharp's threads, never on the event loop. A file that does not decode
 * whole (truncated, corrupt: libvips' warnings count) is refused with 415.
 */
export async function processImage(input: Buffer, maxPixels: number): Promise<ProcessedImage> {
  const header = await readImageHeader(input, maxPixels);
  const sharp = await loadSharp();
  const options: SharpOptions = {
    limitInputPixels: maxPixels,
    failOn: 'warning',
    autoOrient: true,
    animated: false,
  };
  try {
    const original = await toFile(
      sharp(input, options),
      originalName(header.format),
      header.format,
    );
    const variants = await makeVariants(sharp, input, options, original);
    return {
      format: header.format,
      width: original.width,
      height: original.height,
      original,
      variants,
    };
  } catch (error) {
    if (error instanceof ImageRefusal) throw error;
    throw new ImageRefusal(415, INCOMPLETE);
  }
}

/**
 * The variants, from one decode: the image is shrunk once to the widest variant (JPEG and WebP
 * decode at a fraction of their size for it), kept as raw pixels, and each variant is made from
 * those.
 */
async function makeVariants(
  sharp: SharpFactory,
  input: Buffer,
  options: SharpOptions,
  original: ProcessedFile,
): Promise<ProcessedFile[]> {
  const widths = VARIANT_WIDTHS.filter((width) => width < original.width);
  if (widths.length === 0) return [];
  const widest = Math.max(...widths);
  const { data, info } = await sharp(input, options)
    .resize({ width: widest })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const formats: ImageFormat[] = original.format === 'webp' ? ['webp'] : ['webp', original.format];
  const files: ProcessedFile[] = [];
  for (const width of widths) {
    const height = Math.max(1, Math.round((original.height * width) / original.width));
    for (const format of formats) {
      if (format === 'webp' && height > WEBP_MAX_SIDE) continue;
      const pipeline = sharp(data, raw).resize({ width, height, fit: 'fill' });
      files.push(await toFile(pipeline, variantName(width, format), format));
    }
  }
  return files;
}
