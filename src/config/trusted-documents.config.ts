import { readFileSync } from 'node:fs';

import { registerAs } from '@nestjs/config';

import { InvalidEnvironmentError, readBoolean, readOptionalString } from './env';
import { SETTINGS } from './settings.schema';
import { trustedDocumentsProblem } from '../blog';

export interface TrustedDocumentsConfig {
  /** sha256 hex hash to document text, from the `TRUSTED_DOCUMENTS` manifest; empty without one. */
  documents: Record<string, string>;
  /** Refuse every document sent as text. */
  only: boolean;
}

/**
 * Reads the manifest `TRUSTED_DOCUMENTS` names (GraphQL Code Generator's
 * `persisted-documents.json`) and checks every hash against its document, so that a wrong or
 * unreadable manifest stops the service at start-up instead of refusing clients later.
 */
export function loadTrustedDocumentsConfig(
  env: NodeJS.ProcessEnv = process.env,
): TrustedDocumentsConfig {
  const file = readOptionalString(env, SETTINGS.TRUSTED_DOCUMENTS);
  const only = readBoolean(env, SETTINGS.TRUSTED_DOCUMENTS_ONLY);
  if (file === undefined) {
    if (only) {
      throw new InvalidEnvironmentError(
        'TRUSTED_DOCUMENTS_ONLY',
        'needs TRUSTED_DOCUMENTS, the manifest of the documents to allow',
      );
    }
    return { documents: {}, only };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidEnvironmentError('TRUSTED_DOCUMENTS', `cannot read ${file}: ${reason}`);
  }
  const problem = trustedDocumentsProblem(manifest);
  if (problem) throw new InvalidEnvironmentError('TRUSTED_DOCUMENTS', `${file}: ${problem}`);
  return { documents: manifest as Record<string, string>, only };
}

export const trustedDocumentsConfig = registerAs('trustedDocuments', () =>
  loadTrustedDocumentsConfig(),
);
