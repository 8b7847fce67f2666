import { InvalidEnvironmentError, validateEnvironment } from '.';
import { createImageStorage, loadImagesConfig } from './images.config';
import { S3ImageStorage } from '../blog';

describe('S3 settings', () => {
  const s3 = { STORAGE: 's3', S3_BUCKET: 'blog-images' };

  it('should stop the start-up, naming S3_BUCKET, when STORAGE=s3 has no bucket', () => {
    expect(() => validateEnvironment({ STORAGE: 's3' })).toThrow(
      new InvalidEnvironmentError(
        'S3_BUCKET',
        'STORAGE=s3 needs the name of the bucket that keeps the image files',
      ),
    );
    expect(() => validateEnvironment({ STORAGE: 's3', S3_BUCKET: '  ' })).toThrow(/S3_BUCKET/);
  });

  it('should read nothing of S3 on local storage', () => {
    expect(loadImagesConfig({ S3_ENDPOINT: 'not a url' }).s3).toBeNull();
  });

  it('should default to AWS in us-east-1, addressed by host', () => {
    expect(loadImagesConfig(s3).s3).toEqual({
      bucket: 'blog-images',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      timeoutMs: 10_000,
      publicBaseUrl: undefined,
    });
    expect(loadImagesConfig({ ...s3, S3_REGION: 'eu-west-3' }).s3?.region).toBe('eu-west-3');
  });

  it('should address the bucket by path on an endpoint, and take the CDN as the URL base', () => {
    const config = loadImagesConfig({
      ...s3,
      S3_ENDPOINT: 'https://minio.example.com:9000/',
      IMAGE_PUBLIC_BASE_URL: 'https://images.example.com/',
      S3_TIMEOUT_MS: '2500',
    });
    expect(config.s3).toEqual({
      bucket: 'blog-images',
      endpoint: 'https://minio.example.com:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      timeoutMs: 2500,
      publicBaseUrl: 'https://images.example.com',
    });
    const storage = createImageStorage(config);
    expect(storage).toBeInstanceOf(S3ImageStorage);
    expect(storage.publicUrl('images/1/320.webp')).toBe(
      'https://images.example.com/images/1/320.webp',
    );
    (storage as S3ImageStorage).destroy();

    const hosted = loadImagesConfig({
      ...s3,
      S3_ENDPOINT: 'https://s3.example.com',
      S3_FORCE_PATH_STYLE: 'false',
    });
    expect(hosted.s3?.forcePathStyle).toBe(false);
  });

  it.each([
    ['S3_BUCKET', 'Blog_Images'],
    ['S3_BUCKET', 'ab'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_ENDPOINT', 'ftp://minio.example.com'],
    ['S3_ENDPOINT', 'https://key:secret@minio.example.com'],
    ['S3_FORCE_PATH_STYLE', 'maybe'],
    ['S3_TIMEOUT_MS', '10'],
    ['IMAGE_PUBLIC_BASE_URL', 'images.example.com'],
  ])('should refuse %s=%s, naming it', (name, value) => {
    expect(() => validateEnvironment({ ...s3, [name]: value })).toThrow(
      expect.objectContaining({ variable: name }),
    );
  });

  it('should never quote the endpoint, which could hold a password', () => {
    expect(() =>
      validateEnvironment({ ...s3, S3_ENDPOINT: 'https://key:secret@minio.example.com' }),
    ).toThrow(expect.not.objectContaining({ message: expect.stringContaining('secret') }));
  });
});
