import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  anchorsOf,
  deadLinks,
  githubSlug,
  lineCount,
  markdownFilesUnder,
  unreachablePages,
} from './helpers/markdown';
import { rootElementOf, xmlProblem } from './helpers/xml';

const ROOT = join(__dirname, '..');
const DOCS = join(ROOT, 'docs');
const README = join(ROOT, 'README.md');
const SVG = join(DOCS, 'assets', 'architecture.svg');

/** Every Markdown page whose links must hold: the README, the docs, the changelog, the bench's. */
function checkedPages(): string[] {
  return [
    README,
    join(ROOT, 'CHANGELOG.md'),
    ...markdownFilesUnder(DOCS),
    join(ROOT, 'bench', 'README.md'),
    join(ROOT, 'bench', 'HISTORY.md'),
  ];
}

/** `node scripts/architecture-diagram.mjs --check`: its exit code and what it printed. */
function checkDiagram(): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['scripts/architecture-diagram.mjs', '--check'],
      { cwd: ROOT, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        done({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('The documentation (e2e)', () => {
  it('should keep the README to 200 lines at most', () => {
    expect(lineCount(readFileSync(README, 'utf8'))).toBeLessThanOrEqual(200);
  });

  it('should have no dead relative link or anchor in the README, docs/, the changelog or bench/', () => {
    expect(deadLinks(ROOT, checkedPages())).toEqual([]);
  });

  it('should reach every page of docs/ from docs/index.md', () => {
    const index = join(DOCS, 'index.md');
    expect(unreachablePages(ROOT, index, markdownFilesUnder(DOCS))).toEqual([]);
  });

  it('should show the architecture picture in the README', () => {
    expect(readFileSync(README, 'utf8')).toMatch(/!\[[^\]]+\]\(docs\/assets\/architecture\.svg\)/);
  });

  it('should commit the architecture picture its description draws (npm run docs:diagram)', async () => {
    const { code, output } = await checkDiagram();
    expect({ code, output: output.trim() }).toEqual({
      code: 0,
      output: 'docs/assets/architecture.svg is what docs/assets/architecture.json draws.',
    });
  });

  it('should commit an architecture picture that is well-formed SVG', () => {
    const svg = readFileSync(SVG, 'utf8');
    expect(xmlProblem(svg)).toBeNull();
    const root = rootElementOf(svg);
    expect(root.name).toBe('svg');
    expect(root.attributes.get('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(root.attributes.get('viewBox')).toMatch(/^0 0 \d+(\.\d)? \d+(\.\d)?$/);
  });
});

describe('The documentation checks themselves (e2e)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'blog-docs-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  };

  it('should make the anchors GitHub makes', () => {
    expect(githubSlug("Since then: the followers' notifications")).toBe(
      'since-then-the-followers-notifications',
    );
    expect(githubSlug('At rest ≤ 100 MB')).toBe('at-rest--100-mb');
    expect(githubSlug('`--no-maglev`')).toBe('--no-maglev');
    expect(githubSlug('3. Choose the [features](x.md)')).toBe('3-choose-the-features');
    expect([...anchorsOf('# Tags\n\n## Tags\n\n```md\n## Not a heading\n```\n')]).toEqual([
      'tags',
      'tags-1',
    ]);
  });

  it('should find a dead link, a dead anchor and a link out of the repository', () => {
    write('guide.md', '# Guide\n\n## Steps\n');
    const page = write(
      'docs/page.md',
      [
        '# Page',
        '[fine](../guide.md#steps) [gone](missing.md) [no anchor](../guide.md#nowhere)',
        '[out](../../elsewhere.md) [here](#page) [site](https://example.com/x.md)',
        '`[in code](missing.md)`',
        '',
      ].join('\n'),
    );
    expect(deadLinks(dir, [page])).toEqual([
      'docs/page.md:2: missing.md: no such file',
      'docs/page.md:2: ../guide.md#nowhere: no heading of guide.md makes #nowhere',
      'docs/page.md:3: ../../elsewhere.md points outside the repository',
    ]);
  });

  it('should find a page the index does not reach', () => {
    const index = write('docs/index.md', '[a](a.md)\n');
    const a = write('docs/a.md', '[b](sub/b.md)\n');
    const b = write('docs/sub/b.md', '[index](../index.md)\n');
    const lost = write('docs/lost.md', '[a](a.md)\n');
    expect(unreachablePages(dir, index, [index, a, b, lost])).toEqual(['docs/lost.md']);
  });

  it.each([
    ['an element left open', '<svg><g></svg>', 'closes <g>'],
    ['a bare ampersand', '<svg><text>A & B</text></svg>', 'expected a name'],
    ['an unknown entity', '<svg><text>&nbsp;</text></svg>', 'unknown entity'],
    ['a repeated attribute', '<svg x="1" x="2"/>', 'repeated'],
    ['an unquoted attribute', '<svg x=1/>', 'not quoted'],
    ['a "<" in an attribute', '<svg x="a<b"/>', '"<" in the value'],
    ['two roots', '<svg/><svg/>', 'after the root element'],
    ['"--" in a comment', '<svg><!-- a -- b --></svg>', 'inside a comment'],
  ])('should refuse XML with %s', (_what, text, problem) => {
    expect(xmlProblem(text)).toContain(problem);
  });

  it('should accept well-formed XML', () => {
    const text =
      '<?xml version="1.0"?>\n<!-- a -->\n<svg a="&lt;&#60;&#x3C;"><g/>x<![CDATA[<]]></svg>\n';
    expect(xmlProblem(text)).toBeNull();
  });
});
