import { BlogModuleOptions } from '../blog-options.interface';
import { checkPostPath, parseSiteUrl, PostUrls } from './post-urls';

const urls = (site: BlogModuleOptions['site']) =>
  new PostUrls({ jwtSecret: 'x'.repeat(32), site } as BlogModuleOptions);
const post = { id: '0190aaaa-0000-7000-8000-000000000001', slug: 'привет-мир' };

describe('PostUrls', () => {
  it('should answer null without a site', () => {
    expect(urls(undefined).of(post)).toBeNull();
    expect(urls({ url: null }).of(post)).toBeNull();
  });

  it("should join the site, its base path and the post's path, the slug encoded", () => {
    expect(urls({ url: 'https://blog.example.com/' }).of(post)).toBe(
      'https://blog.example.com/posts/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82-%D0%BC%D0%B8%D1%80',
    );
    expect(urls({ url: 'https://example.com/blog', postPath: '/{id}/{slug}' }).of(post)).toBe(
      `https://example.com/blog/${post.id}/${encodeURIComponent(post.slug)}`,
    );
  });

  it('should refuse a site or a path that breaks the rules, at start-up', () => {
    expect(parseSiteUrl('ftp://example.com')).toBeInstanceOf(Error);
    expect(parseSiteUrl('blog.example.com')).toBeInstanceOf(Error);
    expect(parseSiteUrl('https://u:p@example.com')).toBeInstanceOf(Error);
    expect(parseSiteUrl('https://example.com/?q=1')).toBeInstanceOf(Error);
    expect(checkPostPath('posts/{slug}')).toBeInstanceOf(Error);
    expect(checkPostPath('/posts/')).toBeInstanceOf(Error);
    expect(() => urls({ url: 'nope' })).toThrow(/site.url/);
    expect(() => urls({ url: 'https://example.com', postPath: '/x' })).toThrow(/site.postPath/);
  });
});
