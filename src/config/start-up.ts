// The first import of main.ts, so that it runs before anything else is loaded: a Node.js too old
// for the native addons stops here with a message, not a crash later; then .env is read, so that
// every variable in it counts (PORT, HOST, TRUST_PROXY and OTEL_* are read before the
// ConfigModule).
import { loadEnvFile } from './env-file';
import { unsupportedNodeReason } from './node-version';

const unsupportedNode = unsupportedNodeReason();
if (unsupportedNode) {
  console.error(unsupportedNode);
  process.exit(1);
}

function readEnvFile(): string[] {
  try {
    return loadEnvFile();
  } catch (error) {
    console.error(`Cannot read .env: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** The names that `.env` of the working directory sets. */
export const envFileNames: readonly string[] = readEnvFile();
