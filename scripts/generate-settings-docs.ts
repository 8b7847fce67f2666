// npm run docs:settings: writes docs/reference/settings.md and .env.example from the settings
// schema (src/config/settings.schema.ts). src/config/settings.spec.ts fails while either differs
// from what this writes. The page must come out as Prettier lays it out, so that
// `npm run format:check` passes on it: this checks that before writing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { format, resolveConfig } from 'prettier';

import { SETTINGS_FILES } from '../src/config/settings-reference';

const root = join(__dirname, '..');

async function main(): Promise<void> {
  for (const { path, render } of SETTINGS_FILES) {
    const file = join(root, path);
    const text = render();
    if (path.endsWith('.md')) {
      const options = { ...(await resolveConfig(file)), filepath: file };
      if ((await format(text, options)) !== text) {
        throw new Error(`Prettier would change ${path}: make the renderer write its layout`);
      }
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`wrote ${path}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
