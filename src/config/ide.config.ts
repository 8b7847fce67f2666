import { registerAs } from '@nestjs/config';

import { loadAppConfig } from './app.config';
import { readBoolean } from './env';
import { SETTINGS } from './settings.schema';

/** The in-browser IDE (GraphiQL) at `GET /graphql` for clients that ask for HTML. */
export interface IdeConfig {
  enabled: boolean;
}

/** `GRAPHIQL`: on in development, off in test and production unless set to true. */
export function loadIdeConfig(env: NodeJS.ProcessEnv = process.env): IdeConfig {
  const { nodeEnv } = loadAppConfig(env);
  return { enabled: readBoolean(env, SETTINGS.GRAPHIQL, nodeEnv === 'development') };
}

export const ideConfig = registerAs('ide', () => loadIdeConfig());
