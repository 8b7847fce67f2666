// npm run schema:print: regenerates the committed schema.gql from the code.
import { writeFileSync } from 'node:fs';

import { COMMITTED_SCHEMA_FILE, generateSchema, printCommittedForm } from './schema-tools';

generateSchema().then(
  (schema) => {
    writeFileSync(COMMITTED_SCHEMA_FILE, printCommittedForm(schema));
    console.log(`Wrote ${COMMITTED_SCHEMA_FILE}`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
