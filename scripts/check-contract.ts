// npm run check:contract: the generated schema must hold the public contract with no breaking change.
import { relative } from 'node:path';

import { compareSchemas, CONTRACT_FILE, generateSchema, loadSdl } from './schema-tools';

async function main(): Promise<number> {
  const contract = loadSdl(CONTRACT_FILE);
  if (!contract) {
    console.log(
      `check:contract skipped: no contract file at ${relative(process.cwd(), CONTRACT_FILE)}`,
    );
    return 0;
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
