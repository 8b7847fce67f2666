// npm run check:contract: the generated schema must hold the public contract with no breaking change.
// A missing contract file fails the check, unless CONTRACT_CHECK=skip or --if-present says that
// a clone without the contract may pass.
import { relative } from 'node:path';

import { compareSchemas, CONTRACT_FILE, generateSchema, loadSdl } from './schema-tools';

const mayBeMissing = process.argv.includes('--if-present') || process.env.CONTRACT_CHECK === 'skip';

async function main(): Promise<number> {
  const contract = loadSdl(CONTRACT_FILE);
  const where = relative(process.cwd(), CONTRACT_FILE);
  if (!contract) {
    if (mayBeMissing) {
      console.log(`check:contract skipped: no contract file at ${where}`);
      return 0;
    }
    console.error(
      `check:contract failed: no contract file at ${where} (set CONTRACT_FILE to it, or ` +
        'CONTRACT_CHECK=skip or --if-present to pass without one)',
    );
    return 1;
  }
  const { breaking, dangerous } = compareSchemas(contract, await generateSchema());
  for (const change of dangerous) console.warn(`warning: ${change}`);
  for (const change of breaking) console.error(`BREAKING: ${change}`);
  if (breaking.length > 0) {
    console.error(`The schema breaks the contract in ${breaking.length} place(s).`);
    return 1;
  }
  console.log('The generated schema holds the contract: no breaking change.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
