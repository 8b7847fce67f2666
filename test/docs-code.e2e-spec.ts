import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import * as ts from 'typescript';

import { codeBlocksOf, markdownFilesUnder } from './helpers/markdown';

const ROOT = join(__dirname, '..');

/**
 * Packages that a client project installs and this repository does not: a block may import them,
 * and compiles against this loose declaration of them. Nothing of the service may be listed here.
 */
const CLIENT_ONLY_MODULES = `
declare module '@graphql-codegen/cli' {
  export type CodegenConfig = Record<string, unknown>;
}
`;

/** A TypeScript block of the docs, as the file the compiler reads. */
interface DocBlock {
  /** Where the compiler finds it: the block's `// file:` path, or `src/` and a name of its own. */
  path: string;
  code: string;
  /** The Markdown file and line of the block's first line of code. */
  page: string;
  line: number;
}

/** The pages whose TypeScript must compile: the README and every page of docs/. */
function pages(): string[] {
  return [join(ROOT, 'README.md'), ...markdownFilesUnder(join(ROOT, 'docs'))];
}

/**
 * Each ```ts block of `page`. A block that starts with `// file: <path>` is compiled as that file
 * of the project (`src/blog/reactions/reactions.loaders.ts`, `blog-client/client.ts`), so that the
 * blocks of one page may import each other. Any other block is a file of its own in `src/`, where
 * `./blog` is the blog module (`src/blog/index.ts`), as in a host app that copied it beside its
 * own module.
 */
function blocksOf(page: string): DocBlock[] {
  const name = relative(ROOT, page)
    .replace(/\.md$/, '')
    .replace(/[^a-z0-9]+/gi, '-');
  return codeBlocksOf(readFileSync(page, 'utf8'))
    .filter(({ info }) => /^(ts|typescript)\b/.test(info))
    .map(({ code, line }, i) => {
      const named = /^\/\/ file: (\S+\.ts)\s*$/m.exec(code.split('\n')[0]);
      const path = named ? join(ROOT, named[1]) : join(ROOT, 'src', `docs-${name}-${i + 1}.ts`);
      return { path, code, page: relative(ROOT, page), line };
    });
}

/** The compiler options of tsconfig.json, for a check that writes nothing. */
function compilerOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, file);
  return { ...options, noEmit: true };
}

/** Every error the compiler finds in `blocks`, as `page:line: message`. */
function compileErrors(blocks: DocBlock[]): string[] {
  const declarations = join(ROOT, 'src', 'docs-client-modules.d.ts');
  const files = new Map<string, string>(blocks.map((block) => [block.path, block.code]));
  files.set(declarations, CLIENT_ONLY_MODULES);
  const folders = new Set([...files.keys()].map((path) => dirname(path)));
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const directoryExists = host.directoryExists?.bind(host);
  host.getSourceFile = (path, language, ...rest) => {
    const text = files.get(path);
    if (text === undefined) return getSourceFile(path, language, ...rest);
    return ts.createSourceFile(path, text, language, true);
  };
  host.fileExists = (path) => files.has(path) || fileExists(path);
  host.readFile = (path) => files.get(path) ?? readFile(path);
  host.directoryExists = (path) => folders.has(path) || (directoryExists?.(path) ?? true);

  const program = ts.createProgram([...files.keys()], options, host);
  const byPath = new Map(blocks.map((block) => [block.path, block]));
  const errors: string[] = [];
  for (const source of program.getSourceFiles()) {
    const block = byPath.get(source.fileName);
    if (!block) continue;
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      errors.push(`${block.page}:${block.line + line}: TS${diagnostic.code}: ${message}`);
    }
  }
  for (const diagnostic of program.getGlobalDiagnostics()) {
    errors.push(`(global): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  }
  return errors;
}

/** The names of the members of an exported interface of a source file. */
function interfaceMembers(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  );
  if (!found) throw new Error(`no interface ${name} in ${file}`);
  return found.members.map((member) => (member.name as ts.Identifier).text);
}

describe('The TypeScript of the documentation (e2e)', () => {
  const blocks = pages().flatMap(blocksOf);

  it('should find the TypeScript blocks, each at a path of its own that is not a real file', () => {
    expect(blocks.length).toBeGreaterThan(5);
    const paths = blocks.map((block) => relative(ROOT, block.path));
    expect(paths.filter((path, i) => paths.indexOf(path) !== i)).toEqual([]);
    expect(blocks.filter((block) => existsSync(block.path)).map((block) => block.page)).toEqual([]);
  });

  it('should compile every TypeScript block of the README and docs/', () => {
    expect(compileErrors(blocks)).toEqual([]);
  }, 180_000);

  it('should list every BlogModule option in the embedding guide', () => {
    const options = interfaceMembers(
      join(ROOT, 'src', 'blog', 'blog-options.interface.ts'),
      'BlogModuleOptions',
    );
    const guide = readFileSync(join(ROOT, 'docs', 'how-to', 'embed-blog-module.md'), 'utf8');
    const listed = [...guide.matchAll(/^\| `(\w+)` +\|/gm)].map((match) => match[1]);
    expect(options.filter((option) => !listed.includes(option))).toEqual([]);
    expect(options).toEqual(expect.arrayContaining(['searchRankWindow', 'database']));
  });
});
