// The GraphiQL page of GET /graphql (see src/ide/ide-page.ts), bundled with everything it needs
// by scripts/build-ide.mjs: it loads nothing from another host.
import './page-setup';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL, HISTORY_PLUGIN } from 'graphiql';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './page.css';

/** What the server writes into the page (IdePageConfig in src/ide/ide-page.ts). */
interface PageConfig {
  endpoint: string;
  defaultQuery: string;
  tabs: string[];
  initialQuery?: string;
}

const config = JSON.parse(document.getElementById('ide-config')?.textContent ?? '{}') as PageConfig;
const http = new URL(config.endpoint, location.href);
const socket = new URL(http);
socket.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';

// Queries and mutations go over HTTP POST; subscriptions over graphql-ws on the same path, with
// the headers editor's values (an `authorization` token) as the connection parameters.
const fetcher = createGraphiQLFetcher({ url: http.href, subscriptionUrl: socket.href });
const plugins = [HISTORY_PLUGIN];

createRoot(document.getElementById('graphiql')!).render(
  <GraphiQL
    fetcher={fetcher}
    plugins={plugins}
    defaultQuery={config.defaultQuery}
    // A ?query= of the address opens alone; GraphiQL ignores it when given tabs.
    defaultTabs={config.initialQuery ? undefined : config.tabs.map((query) => ({ query }))}
    initialQuery={config.initialQuery}
    defaultHeaders={'{\n  "authorization": ""\n}'}
    defaultEditorToolsVisibility="headers"
  />,
);
