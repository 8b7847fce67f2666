/** Node's options in `script` of `root`'s package.json, a script that runs `dist/src/main.js`. */
export function startOptions(root: string, script?: string): string[];

/** The environment that `script` sets before `node`, without NODE_ENV. */
export function startEnvironment(root: string, script?: string): Record<string, string>;
