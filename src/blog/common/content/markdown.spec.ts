import { LINK_REL } from './allow-list';
import { renderCommentText, renderPostContent } from './markdown';
import { MAX_NESTING } from './nesting';

const post = (markdown: string) => renderPostContent(markdown).html;
const comment = (markdown: string) => renderCommentText(markdown).html;
const REL = `rel="${LINK_REL}"`;

describe('links', () => {
  it('should give every link rel="nofollow ugc noopener noreferrer"', () => {
    expect(post('[x](https://example.com/a)')).toBe(
      `<p><a href="https://example.com/a" ${REL}>x</a></p>`,
    );
    expect(post('<a href="http://example.com/" rel="opener" target="_blank">x</a>')).toBe(
      `<p><a href="http://example.com/" ${REL}>x</a></p>`,
    );
  });

  it('should keep a link title', () => {
    expect(post('[x](https://example.com "The title")')).toBe(
      `<p><a href="https://example.com" title="The title" ${REL}>x</a></p>`,
    );
  });

  it.each(['http://example.com/', 'https://example.com/', 'mailto:someone@example.com'])(
    'should keep a %s link',
    (url) => expect(post(`[x](${url})`)).toContain(`<a href="${url}" ${REL}>x</a>`),
  );

  it('should keep a link to a fragment of the page', () => {
    expect(post('[x](#introduction)')).toBe(`<p><a href="#introduction" ${REL}>x</a></p>`);
  });

  it.each(['/posts/1', '?page=2', 'posts/1', '//example.com/a', '\\\\example.com/a'])(
    'should make a link to the relative URL %s its text, as clients read it on other origins',
    (url) => expect(post(`<a href="${url}">x</a>`)).toBe('<p>x</p>'),
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'ftp://example.com/',
    'file:///etc/passwd',
    'jav&#x09;ascript:alert(1)',
    'javascript&colon;alert(1)',
  ])('should make a %s link its text', (url) => {
    expect(post(`[x](${url})`)).toBe('<p>x</p>');
    expect(comment(`<a href="${url}">x</a>`)).toBe('<p>x</p>');
  });

  it('should refuse a URL with anything before its scheme, even what browsers skip', () => {
    expect(post('<a href="&#xA0;javascript:alert(1)">x</a>')).toBe('<p>x</p>');
    expect(post('<a href="&#xA0;https://example.com/">x</a>')).toBe('<p>x</p>');
    expect(post('<a href=" https://example.com/">x</a>')).toBe('<p>x</p>');
  });

  it('should percent-encode < and > in a URL, and drop a title holding markup', () => {
    expect(post('<a href="https://example.com/?q=<b>" title="a </b> c">x</a>')).toBe(
      `<p><a href="https://example.com/?q=%3Cb%3E" ${REL}>x</a></p>`,
    );
    expect(post('[x](https://example.com "a --> b")')).toBe(
      `<p><a href="https://example.com" ${REL}>x</a></p>`,
    );
  });

  it('should link GitHub autolinks, and autolinks of another scheme only as text', () => {
    expect(post('See https://example.com/a, www.example.com and x@example.com.')).toBe(
      `<p>See <a href="https://example.com/a" ${REL}>https://example.com/a</a>, ` +
        `<a href="http://www.example.com" ${REL}>www.example.com</a> and ` +
        `<a href="mailto:x@example.com" ${REL}>x@example.com</a>.</p>`,
    );
    expect(post('<https://example.com>')).toBe(
      `<p><a href="https://example.com" ${REL}>https://example.com</a></p>`,
    );
    expect(post('<javascript:alert(1)>')).toBe('<p>javascript:alert(1)</p>');
  });
});

describe('images', () => {
  it('should keep an http or https image, with its alt and title', () => {
    expect(post('![A cat](https://example.com/cat.png "Tom")')).toBe(
      '<p><img src="https://example.com/cat.png" alt="A cat" title="Tom" /></p>',
    );
    expect(post('![A cat](http://example.com/cat.png)')).toContain(
      '<img src="http://example.com/cat.png" alt="A cat" />',
    );
  });

  it.each([
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    'mailto:x@example.com',
    'ftp://example.com/cat.png',
    '/cat.png',
    '//example.com/cat.png',
  ])('should drop an image from %s', (url) => {
    expect(post(`![A cat](${url})`)).toBe('<p></p>');
    expect(post(`<img src="${url}" alt="A cat">`)).toBe('');
  });

  it('should drop attributes other than src, alt and title', () => {
    expect(
      post('<img src="https://example.com/a.png" width="9999" class="x" style="x" onerror="x">'),
    ).toBe('<img src="https://example.com/a.png" />');
  });
});

describe('headings', () => {
  it('should give headings GitHub-style ids and list them in toc', () => {
    const { html, toc } = renderPostContent(
      [
        '# Hello, World!',
        '## Hello World',
        '### ¡Hola, Mundo!',
        '## 你好 世界',
        '#### Привет, мир',
        '## Self-hosting snake_case',
        '##### !!!',
        '###### 🎉',
      ].join('\n\n'),
    );
    expect(toc).toEqual([
      { id: 'hello-world', level: 1, title: 'Hello, World!' },
      { id: 'hello-world-1', level: 2, title: 'Hello World' },
      { id: 'hola-mundo', level: 3, title: '¡Hola, Mundo!' },
      { id: '你好-世界', level: 2, title: '你好 世界' },
      { id: 'привет-мир', level: 4, title: 'Привет, мир' },
      { id: 'self-hosting-snake_case', level: 2, title: 'Self-hosting snake_case' },
      { id: 'section', level: 5, title: '!!!' },
      { id: 'section-1', level: 6, title: '🎉' },
    ]);
    expect(html).toContain('<h1 id="hello-world">Hello, World!</h1>');
    expect(html).toContain('<h2 id="hello-world-1">Hello World</h2>');
    expect(html).toContain('<h6 id="section-1">🎉</h6>');
  });

  it('should take a heading title from its text, without markup', () => {
    const { html, toc } = renderPostContent(
      '## The *best* `code` &amp; [a link](https://example.com) <img src=x onerror=alert(1)>',
    );
    expect(toc).toEqual([
      { id: 'the-best-code--a-link', level: 2, title: 'The best code & a link' },
    ]);
    expect(html).toBe(
      '<h2 id="the-best-code--a-link">The <em>best</em> <code>code</code> &amp; ' +
        `<a href="https://example.com" ${REL}>a link</a> </h2>`,
    );
  });

  it('should number ids as GitHub does, counting from the first heading of a slug', () => {
    const { toc } = renderPostContent('# a\n\n# a\n\n# a-1\n\n# a');
    expect(toc.map(({ id }) => id)).toEqual(['a', 'a-1', 'a-1-1', 'a-2']);
  });

  it('should give a heading whose slug names a DOM property an id that cannot shadow it', () => {
    const { toc } = renderPostContent('# Title\n\n# Cookie\n\n# onclick\n\n# Section title');
    expect(toc.map(({ id }) => id)).toEqual([
      'section-title',
      'section-cookie',
      'section-onclick',
      'section-title-1',
    ]);
  });

  it('should give raw HTML headings ids of their own, never the ids they came with', () => {
    const { html, toc } = renderPostContent('<h2 id="cookie" class="x">Intro</h2>');
    expect(html).toBe('<h2 id="intro">Intro</h2>');
    expect(toc).toEqual([{ id: 'intro', level: 2, title: 'Intro' }]);
  });

  it('should list setext headings too', () => {
    expect(renderPostContent('Top\n===\n\nNext\n---').toc).toEqual([
      { id: 'top', level: 1, title: 'Top' },
      { id: 'next', level: 2, title: 'Next' },
    ]);
  });
});

describe('blocks and inlines', () => {
  it('should render tables, with alignment as an align of left, center or right', () => {
    expect(post('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |')).toBe(
      '<table><thead><tr><th align="left">a</th><th align="center">b</th>' +
        '<th align="right">c</th></tr></thead><tbody><tr><td align="left">1</td>' +
        '<td align="center">2</td><td align="right">3</td></tr></tbody></table>',
    );
  });

  it('should drop an align of another value', () => {
    expect(post('<table><tr><td align="justify" valign="top">x</td></tr></table>')).toBe(
      '<table><tr><td>x</td></tr></table>',
    );
    expect(post('<table><tr><th ALIGN="Center">x</th></tr></table>')).toBe(
      '<table><tr><th align="center">x</th></tr></table>',
    );
  });

  it('should render task lists with disabled checkboxes', () => {
    expect(post('- [x] done\n- [ ] to do')).toBe(
      '<ul><li><input type="checkbox" checked disabled /> done</li>' +
        '<li><input type="checkbox" disabled /> to do</li></ul>',
    );
  });

  it('should make any other input a disabled checkbox', () => {
    expect(post('<input type="text" name="password" value="x" onfocus="x" autofocus>')).toBe(
      '<input type="checkbox" disabled />',
    );
  });

  it('should render strikethrough as del', () => {
    expect(post('~~gone~~ and ~also~')).toBe('<p><del>gone</del> and <del>also</del></p>');
  });

  it('should keep an ordered list start, and only a number', () => {
    expect(post('3. three\n4. four')).toBe('<ol start="3"><li>three</li><li>four</li></ol>');
    expect(post('<ol start="x" type="a"><li>a</li></ol>')).toBe('<ol><li>a</li></ol>');
  });

  it('should keep code, blockquotes and rules, without classes', () => {
    expect(post('```js\nconst a = 1 < 2;\n```\n\n> quoted `code`\n\n---')).toBe(
      '<pre><code>const a = 1 &lt; 2;\n</code></pre>' +
        '<blockquote><p>quoted <code>code</code></p></blockquote><hr />',
    );
  });

  it('should drop elements off the allow-list, keeping their text, but not script or style text', () => {
    expect(post('<div class="x"><b>bold</b> <span style="color:red">red</span></div>')).toBe(
      'bold red',
    );
    expect(post('a<script>alert(1)</script><style>p{}</style><textarea>t</textarea>b')).toBe(
      '<p>ab</p>',
    );
  });

  it('should leave out the tags of blocks inside a paragraph, keeping their text', () => {
    expect(
      post('<p><strong>a<table><tr><td>b</td></tr></table><ul><li>c</li></ul></strong></p>'),
    ).toBe('<p><strong>abc</strong></p>');
  });

  it('should drop style and class attributes everywhere', () => {
    expect(post('<p style="color:red" class="admin">x</p>')).toBe('<p>x</p>');
  });

  it('should escape text that looks like markup', () => {
    expect(post('1 &lt; 2 and `<b>`')).toBe('<p>1 &lt; 2 and <code>&lt;b&gt;</code></p>');
  });
});

describe('renderCommentText', () => {
  it('should make headings paragraphs, and list none', () => {
    const rendered = renderCommentText('# Big\n\ntext');
    expect(rendered.html).toBe('<p>Big</p><p>text</p>');
    expect(rendered.toc).toEqual([]);
    expect(comment('<h2 id="x">raw</h2>')).toBe('<p>raw</p>');
  });

  it('should drop images', () => {
    expect(
      comment('![A cat](https://example.com/cat.png) and <img src="https://example.com/a.png">'),
    ).toBe('<p> and </p>');
  });

  it('should keep links, tables, task lists and strikethrough as posts do', () => {
    const markdown = '[x](https://example.com)\n\n| a |\n|---|\n| 1 |\n\n- [x] ~~done~~';
    expect(comment(markdown)).toBe(post(markdown));
  });
});

describe('text', () => {
  it('should be the plain text of the HTML, a line for each block', () => {
    const { text } = renderPostContent(
      [
        '# Title',
        'Some *emphasis*, &amp; &lt;tags&gt; and a\nsoft break.',
        '- one\n- two',
        '| a | b |\n|---|---|\n| 1 | 2 |',
        '```\nline 1\n    line 2\n```',
        '> quoted',
        'line<br>break',
      ].join('\n\n'),
    );
    expect(text).toBe(
      [
        'Title',
        'Some emphasis, & <tags> and a soft break.',
        'one',
        'two',
        'a b',
        '1 2',
        'line 1',
        'line 2',
        'quoted',
        'line',
        'break',
      ].join('\n'),
    );
  });

  it('should leave out what the sanitiser dropped', () => {
    expect(renderPostContent('a <script>alert(1)</script> b').text).toBe('a b');
  });

  it('should decode entities once', () => {
    expect(renderPostContent('&amp;lt; &#169; &copy; &quot;').text).toBe('&lt; © © "');
  });
});

describe('wordCount', () => {
  it.each([
    ['Hello, world — it’s 2024.', 4],
    ['# Title\n\nOne two three.', 4],
    ['你好世界', 4],
    ['日本語の text です。', 7],
    ['안녕하세요 세계', 2],
    ['', 0],
    ['— … !', 0],
  ])('should count %p as %p words', (markdown, count) => {
    expect(renderPostContent(markdown).wordCount).toBe(count);
  });
});

describe('hostile nesting', () => {
  const BOMB_LENGTH = 50_000;

  it.each([
    ['block quotes', '>'.repeat(BOMB_LENGTH)],
    ['spaced block quotes', '> '.repeat(BOMB_LENGTH / 2)],
    ['list items on one line', '- '.repeat(BOMB_LENGTH / 2)],
    ['ordered list items on one line', '1. '.repeat(BOMB_LENGTH / 3)],
    ['quotes and lists', '> - 1) '.repeat(BOMB_LENGTH / 7)],
  ])('should bound %s to MAX_NESTING levels', (_name, markdown) => {
    const { html, text } = renderPostContent(`${markdown}deep`);
    expect(html.split('<blockquote>').length + html.split('<li>').length - 2).toBeLessThanOrEqual(
      MAX_NESTING,
    );
    expect(text).toMatch(/deep$/);
  });

  it('should read a run of 256 characters or more without spaces as text, with no autolink', () => {
    expect(post(`${'a'.repeat(256)}@example.com`)).toBe(`<p>${'a'.repeat(256)}@example.com</p>`);
    expect(post(`${'a'.repeat(60)}@example.com`)).toContain(`href="mailto:${'a'.repeat(60)}@`);
  });

  it.each([
    ['emphasis runs', '*a'.repeat(BOMB_LENGTH / 2)],
    ['strong emphasis runs', '__a'.repeat(BOMB_LENGTH / 3)],
    ['snake case', 'a_'.repeat(BOMB_LENGTH / 2)],
    ['brackets', '['.repeat(BOMB_LENGTH)],
    ['image brackets', '!['.repeat(BOMB_LENGTH / 2)],
    ['unclosed links', '[a]('.repeat(BOMB_LENGTH / 4)],
    ['emphasis', '*a '.repeat(BOMB_LENGTH / 3)],
    ['strong emphasis', '**a'.repeat(BOMB_LENGTH / 3)],
    ['underscores', '_'.repeat(BOMB_LENGTH)],
    ['backticks', '`a'.repeat(BOMB_LENGTH / 2)],
    ['angle brackets', '<'.repeat(BOMB_LENGTH)],
    ['raw HTML', '<div>'.repeat(BOMB_LENGTH / 5)],
    ['raw HTML closed wrongly', '<ul>'.repeat(BOMB_LENGTH / 8) + '</x>'.repeat(BOMB_LENGTH / 8)],
    ['table columns', `${'|a'.repeat(BOMB_LENGTH / 4)}\n${'|-'.repeat(BOMB_LENGTH / 4)}`],
    ['backslashes', '\\'.repeat(BOMB_LENGTH)],
    [
      'indented lists',
      Array.from({ length: 300 }, (_, depth) => `${'  '.repeat(depth)}- item`).join('\n'),
    ],
  ])('should render %s', (_name, markdown) => {
    expect(typeof renderPostContent(markdown).html).toBe('string');
  });
});
