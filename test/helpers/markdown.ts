import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';

/** A place in a Markdown file, for messages: `docs/index.md:12`. */
function at(root: string, file: string, text: string, index: number): string {
  const line = text.slice(0, index).split('\n').length;
  return `${relative(root, file)}:${line}`;
}

/** The line of a fence: three or more backticks or tildes, then maybe an info string. */
function fenceOf(line: string): string | null {
  const trimmed = line.trimStart();
  for (const mark of ['```', '~~~']) {
    if (trimmed.startsWith(mark)) {
      let length = mark.length;
      while (trimmed[length] === mark[0]) length += 1;
      return mark[0].repeat(length);
    }
  }
  return null;
}

/** A fenced code block: its info string (`ts`), its text, and the line its text starts on. */
export interface CodeBlock {
  info: string;
  code: string;
  /** 1-based line of the block's first line of code in its file. */
  line: number;
}

/** Every fenced code block of `text`, in order. */
export function codeBlocksOf(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = fenceOf(lines[i]);
    if (!fence) continue;
    const info = lines[i].trimStart().slice(fence.length).trim();
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) body.push(lines[j++]);
    blocks.push({ info, code: body.join('\n'), line: i + 2 });
    i = j;
  }
  return blocks;
}

/** `text` with the lines of its fenced code blocks blanked, line breaks kept. */
function withoutFences(text: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    if (fence) {
      if (line.trimStart().startsWith(fence)) fence = null;
      kept.push('');
    } else if ((fence = fenceOf(line))) {
      kept.push('');
    } else {
      kept.push(line);
    }
  }
  return kept.join('\n');
}

/**
 * `text` with its code blocks and inline code spans blanked, line breaks kept: what is left is
 * prose, whose links count. A backtick run opens a span and the same run closes it.
 */
export function proseOf(text: string): string {
  return withoutFences(text).replace(/(`+)[^`]*?\1/gs, (span) => span.replace(/[^\n]/g, ' '));
}

/**
 * The anchor GitHub gives a heading: its text as rendered (code and emphasis marks and link
 * targets dropped), lower-cased, without punctuation but `-` and `_`, spaces made dashes.
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*/g, '')
    .replace(/<[^>]+>/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text: its headings' slugs (repeats numbered) and HTML ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = withoutFences(text);
  for (const line of prose.split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  return anchors;
}

/** A link of a Markdown file: where it points, and where it is. */
export interface Link {
  target: string;
  where: string;
}

/** The inline links, images and reference definitions of a Markdown file's prose. */
export function linksOf(root: string, file: string): Link[] {
  const text = readFileSync(file, 'utf8');
  const prose = proseOf(text);
  const links: Link[] = [];
  const inline = /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;
  for (const match of prose.matchAll(inline)) {
    links.push({ target: match[1], where: at(root, file, text, match.index) });
  }
  for (const match of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) {
    links.push({ target: match[1], where: at(root, file, text, match.index) });
  }
  return links;
}

/** Whether a link leaves the repository's files: a URL with a scheme, or protocol-relative. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** The file a relative link of `file` names, and its anchor. */
function resolveLink(file: string, target: string): { path: string; anchor: string | null } {
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  return { path: path === '' ? file : resolve(dirname(file), path), anchor };
}

/**
 * What is wrong with the relative links of `files`: a target outside `root`, a file that does not
 * exist, an anchor that no heading of the target makes. External links are not followed.
 */
export function deadLinks(root: string, files: string[]): string[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    if (!anchors.has(path)) anchors.set(path, anchorsOf(readFileSync(path, 'utf8')));
    return anchors.get(path)!;
  };
  const problems: string[] = [];
  for (const file of files) {
    for (const { target, where } of linksOf(root, file)) {
      if (isExternal(target)) continue;
      if (target === '') {
        problems.push(`${where}: an empty link`);
        continue;
      }
      const { path, anchor } = resolveLink(file, target);
      const inside = relative(root, path);
      if (inside.startsWith(`..${sep}`) || inside === '..') {
        problems.push(`${where}: ${target} points outside the repository`);
      } else if (!existsSync(path)) {
        problems.push(`${where}: ${target}: no such file`);
      } else if (anchor !== null) {
        if (statSync(path).isDirectory() || extname(path) !== '.md') {
          problems.push(`${where}: ${target}: an anchor on a file that is not Markdown`);
        } else if (!anchorsIn(path).has(anchor)) {
          problems.push(
            `${where}: ${target}: no heading of ${relative(root, path)} makes #${anchor}`,
          );
        }
      }
    }
  }
  return problems;
}

/** Every Markdown file under `dir`, sorted. */
export function markdownFilesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...markdownFilesUnder(path));
    else if (entry.name.endsWith('.md')) files.push(path);
  }
  return files.sort();
}

/**
 * The pages of `pages` that no chain of links from `index` reaches, following only links to the
 * pages themselves.
 */
export function unreachablePages(root: string, index: string, pages: string[]): string[] {
  const wanted = new Set(pages);
  const reached = new Set([index]);
  const queue = [index];
  while (queue.length > 0) {
    const page = queue.shift()!;
    for (const { target } of linksOf(root, page)) {
      if (isExternal(target)) continue;
      const { path } = resolveLink(page, target);
      if (wanted.has(path) && !reached.has(path)) {
        reached.add(path);
        queue.push(path);
      }
    }
  }
  return pages.filter((page) => !reached.has(page)).map((page) => relative(root, page));
}

/** The number of lines of a text file, as `wc -l` counts them when it ends with a line break. */
export function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}
