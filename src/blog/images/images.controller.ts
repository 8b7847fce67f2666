import { createReadStream } from 'node:fs';

import {
  Controller,
  Get,
  Inject,
  Logger,
  Param,
  Post,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { GraphQLError } from 'graphql';

import { CONTENT_TYPES, formatOfFileName, imageKey, isImageId } from './image-files';
import { ImageRefusal } from './image-processor';
import { Image } from './image.entity';
import { ImagesService, normaliseAlt } from './images.service';
import { LocalFile, LocalImageStorage } from './local-image-storage';
import { AccessTokenService } from '../auth/access-token.service';
import { headerOf, isNotModified, RequestHeaders } from '../common/conditional-get';
import { ErrorCode, messageOf, unauthenticated } from '../common/errors';
import { WriteRateLimiter } from '../limits/write-rate-limit';
import type { MailSettings } from '../mail/mail-options';
import { MAIL_SETTINGS } from '../mail/mail-outbox';
import { activeBan, bannedError } from '../users/bans';
import { unverifiedEmailRefusal } from '../users/email-verification';
import type { User } from '../users/user.entity';

/** One part of a multipart body, as @fastify/multipart gives it. */
interface MultipartPart {
  type: 'file' | 'field';
  fieldname: string;
  value?: unknown;
  file?: AsyncIterable<Buffer> & { truncated?: boolean; resume(): void };
}

/** What the routes read of a request: headers, and @fastify/multipart's methods on Fastify. */
interface ImageRequest {
  headers: Record<string, string | string[] | undefined>;
  isMultipart?: () => boolean;
  parts?: (options: { limits: Record<string, number> }) => AsyncIterable<MultipartPart>;
}

/** A refusal of the image routes: its status, code and message, and what else it says. */
class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Room for the multipart framing and the `alt` field around the file, in bytes. */
const FRAMING_BYTES = 64 * 1024;
/** The longest `alt` field, in bytes: 1000 characters of up to 4 bytes, and room to trim. */
const ALT_FIELD_BYTES = 8 * 1024;

/** How a stored image file is served: cached for good, never sniffed, never run. */
const FILE_HEADERS = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Accept-Ranges': 'bytes',
} as const;

const STATUS_OF_CODE: Partial<Record<string, number>> = {
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.BadUserInput]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.TooManyRequests]: 429,
  [ErrorCode.ClientClosedRequest]: 499,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.StatementTimeout]: 503,
};

/**
 * Uploads, beside `/graphql`: `POST /images` takes `multipart/form-data` with the image in the
 * field `file` and an optional `alt`, signed in with a bearer token as `/graphql` is; it answers
 * 201 with the image as JSON. Refusals are `{ "error": { "code", "message" } }`: 401 without a
 * valid token, 403 for a banned user, 413 over IMAGE_MAX_BYTES (checked while the body streams
 * in), IMAGE_MAX_PIXELS (from the header) or the quota, 415 for what is not a whole JPEG, PNG,
 * WebP, AVIF or GIF image, 429 over the write limit or a full processing queue, 400 for a
 * malformed request. Uploads need Fastify with @fastify/multipart registered on it.
 *
 * With local storage, `GET /images/{id}/{name}` serves the stored files: immutable, with a
 * strong ETag (304 on a match), ranges (206, or 416), `nosniff` and a policy that runs nothing.
 */
@Controller()
export class ImagesController {
  private readonly logger = new Logger('ImagesController');

  constructor(
    private readonly images: ImagesService,
    private readonly accessTokens: AccessTokenService,
    private readonly writes: WriteRateLimiter,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MAIL_SETTINGS) private readonly mail: MailSettings,
  ) {}

  @Post('images')
  async upload(@Req() request: ImageRequest, @Res() response: unknown): Promise<unknown> {
    const http = this.adapterHost.httpAdapter;
    let image: Image;
    try {
      image = await this.receive(request);
    } catch (error) {
      return this.refuse(response, error);
    }
    http.setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
    http.setHeader(response, 'Location', this.images.urlOf(image));
    return http.reply(response, this.toJson(image), 201);
  }

  @Get('images/:id/:name')
  async file(
    @Param('id') id: string,
    @Param('name') name: string,
    @Req() request: ImageRequest,
    @Res() response: unknown,
  ): Promise<unknown> {
    const { storage } = this.images;
    const format = formatOfFileName(name);
    const file =
      storage instanceof LocalImageStorage && format && isImageId(id)
        ? await storage.file(imageKey(id, name))
        : null;
    if (!file || !format) {
      return this.refuse(response, new HttpRefusal(404, ErrorCode.NotFound, 'No such image.'));
    }
    return this.serve(file, CONTENT_TYPES[format], request, response);
  }

  /** Checks the request, reads its file and stores the image; throws what refuses it. */
  private async receive(request: ImageRequest): Promise<Image> {
    const user = await this.signedInWriter(request);
    if (typeof request.parts !== 'function' || typeof request.isMultipart !== 'function') {
      throw new HttpRefusal(
        415,
        ErrorCode.BadRequest,
        'Uploads need the Fastify adapter with @fastify/multipart registered on it.',
      );
    }
    if (!request.isMultipart()) {
      throw new HttpRefusal(
        415,
        ErrorCode.BadRequest,
        'Send multipart/form-data, with the image in the field "file".',
      );
    }
    const { maxBytes } = this.images.limits;
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > maxBytes + FRAMING_BYTES) throw tooLarge(maxBytes);
    const place = this.images.admit();
    try {
      await this.images.checkQuota(user.id);
      const { file, alt } = await this.readParts(request, maxBytes);
      return await this.images.upload(user, file, alt, place);
    } finally {
      place.release();
    }
  }

  /**
   * The signed-in user, refused when anonymous, banned, unverified where verified addresses are
   * required, or over the write limit: the rules of the blog's mutations.
   */
  private async signedInWriter(request: ImageRequest): Promise<User> {
    const authentication = await this.accessTokens.authenticate(request.headers.authorization);
    if (!authentication) throw unauthenticated('You must be signed in to upload an image.');
    const { user } = authentication;
    const ban = activeBan(user);
    if (ban) throw bannedError(ban);
    const unverified = unverifiedEmailRefusal(user, this.mail.requireVerifiedEmail);
    if (unverified) throw unverified;
    await this.writes.consume(user, 1);
    return user;
  }

  /**
   * The file and `alt` of the body. The file is read up to `maxBytes`: one more byte refuses the
   * upload with 413 at once, before anything is stored.
   */
  private async readParts(
    request: ImageRequest,
    maxBytes: number,
  ): Promise<{ file: Buffer; alt: string | null }> {
    let file: Buffer | null = null;
    let alt: string | null = null;
    const limits = {
      fileSize: maxBytes,
      files: 1,
      fields: 4,
      fieldSize: ALT_FIELD_BYTES,
      parts: 5,
      headerPairs: 100,
    };
    try {
      for await (const part of request.parts!({ limits })) {
        if (part.type === 'field') {
          if (part.fieldname === 'alt') alt = normaliseAlt(String(part.value ?? ''));
          continue;
        }
        if (part.fieldname !== 'file') throw malformed('The image goes in the field "file".');
        file = await readFile(part.file!, maxBytes);
      }
    } catch (error) {
      throw multipartRefusal(error, maxBytes);
    }
    if (!file) throw malformed('The body has no file in the field "file".');
    return { file, alt };
  }

  /** Sends a stored file, or 304, or the range asked for (206), or 416. */
  private serve(
    file: LocalFile,
    contentType: string,
    request: ImageRequest,
    response: unknown,
  ): unknown {
    const http = this.adapterHost.httpAdapter;
    const etag = `"${file.bytes.toString(16)}-${Math.floor(file.modifiedAt.getTime()).toString(16)}"`;
    for (const [name, value] of Object.entries(FILE_HEADERS)) http.setHeader(response, name, value);
    http.setHeader(response, 'ETag', etag);
    http.setHeader(response, 'Last-Modified', file.modifiedAt.toUTCString());
    if (isNotModified({ etag, lastModified: file.modifiedAt }, request.headers)) {
      return http.reply(response, undefined, 304);
    }
    http.setHeader(response, 'Content-Type', contentType);
    const range = rangeOf(request.headers, etag, file.bytes);
    if (range === 'unsatisfiable') {
      http.setHeader(response, 'Content-Range', `bytes */${file.bytes}`);
      return http.reply(response, undefined, 416);
    }
    const { start, end } = range ?? { start: 0, end: file.bytes - 1 };
    if (range) http.setHeader(response, 'Content-Range', `bytes ${start}-${end}/${file.bytes}`);
    const length = Math.max(0, end - start + 1);
    const body =
      length === 0
        ? ''
        : new StreamableFile(createReadStream(file.path, { start, end }), { length });
    if (length === 0) http.setHeader(response, 'Content-Length', '0');
    return http.reply(response, body, range ? 206 : 200);
  }

  private refuse(response: unknown, error: unknown): unknown {
    const http = this.adapterHost.httpAdapter;
    const refusal = this.asRefusal(error);
    if (refusal.status === 429 && typeof refusal.extra.retryAfter === 'number') {
      http.setHeader(response, 'Retry-After', String(refusal.extra.retryAfter));
    }
    http.setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
    const body = { error: { code: refusal.code, message: refusal.message, ...refusal.extra } };
    return http.reply(response, body, refusal.status);
  }

  private asRefusal(error: unknown): HttpRefusal {
    if (error instanceof HttpRefusal) return error;
    if (error instanceof ImageRefusal) {
      const extra = error.limit ? { limit: error.limit } : {};
      return new HttpRefusal(error.status, ErrorCode.BadUserInput, error.message, extra);
    }
    if (error instanceof GraphQLError) {
      const { code, http, ...extra } = error.extensions as {
        code?: string;
        http?: { status?: number };
      } & Record<string, unknown>;
      const status = http?.status ?? (code ? STATUS_OF_CODE[code] : undefined);
      if (status && code) return new HttpRefusal(status, code as ErrorCode, error.message, extra);
    }
    this.logger.error(
      `Unexpected error in POST /images: ${messageOf(error)}`,
      (error as Error).stack,
    );
    return new HttpRefusal(500, ErrorCode.InternalServerError, 'Internal server error.');
  }

  private toJson(image: Image) {
    return {
      id: image.id,
      url: this.images.urlOf(image),
      width: image.width,
      height: image.height,
      format: image.format,
      alt: image.alt,
      bytes: image.bytes,
      createdAt: image.createdAt.toISOString(),
      variants: this.images.variantsOf(image),
    };
  }
}

const tooLarge = (maxBytes: number) =>
  new HttpRefusal(
    413,
    ErrorCode.BadUserInput,
    `The file is larger than ${maxBytes} bytes, the most an upload may be.`,
    { limit: 'maxBytes' },
  );

const malformed = (message: string) => new HttpRefusal(400, ErrorCode.BadRequest, message);

/** Reads a file part whole, or throws 413 at its `maxBytes + 1`th byte. */
async function readFile(
  stream: NonNullable<MultipartPart['file']>,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (bytes > maxBytes || stream.truncated) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  if (stream.truncated) throw tooLarge(maxBytes);
  return Buffer.concat(chunks, bytes);
}

/** What a failure while reading the body answers: our own refusals, 413 for limits, else 400. */
function multipartRefusal(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpRefusal || error instanceof GraphQLError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return malformed('Send one file at a time.');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return malformed('The body has too many parts: send "file" and, optionally, "alt".');
  }
  return malformed(`The multipart body could not be read: ${messageOf(error)}`);
}

/**
 * The one byte range of a `Range: bytes=...` header that applies: null for none (no header, a
 * unit other than bytes, several ranges, a malformed one, or an `If-Range` that no longer
 * matches: the whole file is sent), `unsatisfiable` for one that starts past the end.
 */
export function rangeOf(
  headers: RequestHeaders,
  etag: string,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const value = headerOf(headers, 'range');
  if (!value) return null;
  const ifRange = headerOf(headers, 'if-range');
  if (ifRange !== undefined && ifRange.trim() !== etag) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
