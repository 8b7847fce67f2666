import { formatOfFileName, imageKey, isImageId, parseImageKey, variantName } from './image-files';

const ID = '0190a000-0000-7000-8000-000000000001';

describe('image file names', () => {
  it.each([
    ['original.jpg', 'jpeg'],
    ['original.png', 'png'],
    ['640.webp', 'webp'],
    ['1920.avif', 'avif'],
    ['320.gif', 'gif'],
  ])('should read %s as %s', (name, format) => {
    expect(formatOfFileName(name)).toBe(format);
  });

  it.each([
    'original.jpeg',
    'original.svg',
    'original.JPG',
    '../blog.sqlite',
    'original.jpg.1a2b.tmp',
    '0640.webp',
    '640.webp/',
    '.jpg',
    'original',
    '..%2Foriginal.jpg',
  ])('should refuse %s', (name) => {
    expect(formatOfFileName(name)).toBeNull();
  });

  it('should name variants with the extension of their format', () => {
    expect(variantName(320, 'jpeg')).toBe('320.jpg');
    expect(imageKey(ID, '320.jpg')).toBe(`images/${ID}/320.jpg`);
  });

  it('should take ids in lower case only', () => {
    expect(isImageId(ID)).toBe(true);
    expect(isImageId(ID.toUpperCase().replace('0190A', '0190B'))).toBe(false);
    expect(isImageId('..')).toBe(false);
  });

  it('should read the id of any key under an image folder, and the name of image files only', () => {
    expect(parseImageKey(`images/${ID}/original.png`)).toEqual({ id: ID, name: 'original.png' });
    expect(parseImageKey(`images/${ID}/original.png.ab12.tmp`)).toEqual({ id: ID, name: null });
    expect(parseImageKey(`images/${ID}/a/b`)).toBeNull();
    expect(parseImageKey('images/not-an-id/original.png')).toBeNull();
    expect(parseImageKey(`other/${ID}/original.png`)).toBeNull();
  });
});
