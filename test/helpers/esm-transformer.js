// ts-jest, plus what TypeScript leaves alone when it turns an ES module into CommonJS:
// `import.meta`, which Nest 12's packages use and which a CommonJS module cannot parse.
const { TsJestTransformer } = require('ts-jest');

const IMPORT_META = [
  // CommonJS already has `require`; redeclaring it is a syntax error.
  [/^\s*const require = createRequire\(import\.meta\.url\);?$/gm, ''],
  [/import\.meta\.url/g, "require('node:url').pathToFileURL(__filename).href"],
  [/import\.meta\.dirname/g, '__dirname'],
  [/import\.meta\.filename/g, '__filename'],
  [/import\.meta\.resolve\(/g, 'require.resolve('],
];

const rewrite = (source) =>
  source.includes('import.meta')
    ? IMPORT_META.reduce(
        (code, [pattern, replacement]) => code.replace(pattern, replacement),
        source,
      )
    : source;

class EsmToCommonJsTransformer extends TsJestTransformer {
  process(source, path, options) {
    return super.process(rewrite(source), path, options);
  }

  processAsync(source, path, options) {
    return super.processAsync(rewrite(source), path, options);
  }

  getCacheKey(source, path, options) {
    return super.getCacheKey(rewrite(source), path, options);
  }
}

module.exports = {
  createTransformer: (config) => new EsmToCommonJsTransformer(config),
};
