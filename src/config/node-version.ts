/**
 * The oldest Node.js the service runs on, as package.json's `engines` says: better-sqlite3 13's
 * prebuilt addon is built for Node-API 10, which Node.js has from 22.14 on; on 22.13 it ends the
 * process with a segmentation fault at the first statement.
 */
export const MINIMUM_NODE_VERSION = '22.14.0';

/** Why `version` (default: this process's) cannot run the service, or null when it can. */
export function unsupportedNodeReason(version: string = process.versions.node): string | null {
  const [major, minor, patch] = version.split('.').map(Number);
  const [minMajor, minMinor, minPatch] = MINIMUM_NODE_VERSION.split('.').map(Number);
  const older =
    major !== minMajor
      ? major < minMajor
      : minor !== minMinor
        ? minor < minMinor
        : patch < minPatch;
  if (!older) return null;
  return (
    `Node.js ${version} cannot run this service: it needs Node.js ${MINIMUM_NODE_VERSION} or ` +
    'later on the 22 line, 24 or 26 (see "Quick start" in the README for getting one).'
  );
}
