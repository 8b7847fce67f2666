/**
 * The offline IDE (GraphiQL, React and Monaco built by scripts/build-ide.mjs into dist/ide) for
 * an application other than the standalone service, such as examples/host-app.
 */
export { ideMiddleware } from './ide-middleware';
export type { IdeMiddleware } from './ide-middleware';
