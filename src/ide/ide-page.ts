import { randomBytes } from 'node:crypto';

import type { BlogFeatureSwitches } from '../blog';

/** Where the IDE's built files are served: under the endpoint, so one path prefix covers both. */
export const IDE_ASSETS_PATH = '/graphql/ide/';

/** The specification's feed query, pre-filled in the operation editor. */
export const FEED_QUERY = `# The feed: posts by the people you follow and
# yours (every post when anonymous). To sign in,
# run logIn and put "Bearer <token>" in the
# authorization header below.
query Feed {
  feed {
    id
    content
    createdAt
    author {
      name
      handle
      avatar
    }
    likesCount
    isLikedByMe
  }
}
`;

/** A full-text search, pre-filled in a tab of its own where the search feature is on. */
export const SEARCH_QUERY = `# Full-text search of published posts: several
# words, a "quoted phrase", -word to leave a
# word out, and the start of the last word.
# Each hit has its rank and a snippet with the
# words it found marked.
query Search {
  searchPosts(query: "graphql", first: 10) {
    edges {
      rank
      snippet
      node {
        id
        title
        author {
          name
        }
      }
    }
  }
}
`;

/** The tags, pre-filled in a tab of their own where the tags feature is on. */
export const TAGS_QUERY = `# Tags: the most used ones, and the published
# posts of one. Posts take up to 5 tags through
# createPost and updatePost, and lists of posts
# filter by them: posts(tags: ["history"]).
query Tags {
  popularTags(first: 10) {
    edges {
      node {
        slug
        postsCount
      }
    }
  }
  tag(slug: "history") {
    slug
    posts(first: 10) {
      edges {
        node {
          title
          tags
        }
      }
    }
  }
}
`;

/** A post's page, read by its slug as a front-end would, pre-filled in a tab of its own. */
export const POST_PAGE_QUERY = `# A post's page, as a front-end reads it by the
# slug in its address: the HTML, rendered and
# sanitised on write, its table of contents, the
# card fields and the first comments.
query PostPage {
  postBySlug(slug: "notes-on-the-analytical-engine") {
    title
    slug
    url
    status
    publishedAt
    readingTimeMinutes
    coverImage {
      url
      alt
    }
    toc {
      id
      level
      title
    }
    contentHtml
    author {
      name
      handle
    }
    comments(first: 5) {
      textHtml
      author {
        name
      }
    }
  }
}
`;

/**
 * The operation editor's first tabs: the feed, a post's page, then a search and the tags where
 * those are on.
 */
export function ideTabs(features: BlogFeatureSwitches = {}): string[] {
  return [
    FEED_QUERY,
    POST_PAGE_QUERY,
    ...(features.search === false ? [] : [SEARCH_QUERY]),
    ...(features.tags === false ? [] : [TAGS_QUERY]),
  ];
}

/** What the page's script reads from the page (see src/ide/browser/ide.tsx). */
export interface IdePageConfig {
  endpoint: string;
  /** The query of a tab the user opens. */
  defaultQuery: string;
  /** The queries of the tabs a first visit opens with (see {@link ideTabs}). */
  tabs: string[];
  /** A `?query=` of the page's address: shown instead of the saved or default query. */
  initialQuery?: string;
}

/** A page with its Content-Security-Policy, whose nonce is new for every response. */
export interface IdePage {
  html: string;
  contentSecurityPolicy: string;
}

/**
 * Everything comes from the service's own origin: scripts, styles, workers, and the requests
 * (HTTP and the graphql-ws socket; `'self'` covers ws: and wss: on the same host). `data:` only
 * for the fonts and icons inlined in the CSS. No `'unsafe-inline'` and no `'unsafe-eval'`:
 * Monaco's run-time <style> elements carry the response's nonce (browser/page-setup.tsx), and
 * its `style` attributes are set through the CSSOM (browser/monaco-inline-styles.tsx).
 */
export function idePageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of the built files themselves, which is what the Monaco workers run under. */
export const IDE_ASSET_CSP = "default-src 'self'; frame-ancestors 'none'";

export function renderIdePage(config: IdePageConfig): IdePage {
  const nonce = randomBytes(18).toString('base64');
  // JSON in a data block: `<` escaped, so a query cannot close the element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="csp-nonce" content="${nonce}" />
    <title>Blog GraphQL IDE</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${IDE_ASSETS_PATH}ide.css" />
    <script type="module" src="${IDE_ASSETS_PATH}ide.js"></script>
    <script id="ide-config" type="application/json">${json}</script>
  </head>
  <body>
    <div id="graphiql">Loading the IDE…</div>
  </body>
</html>
`;
  return { html, contentSecurityPolicy: idePageCsp(nonce) };
}

/** Served instead when the build has not run, so that the page says what to do. */
export const IDE_NOT_BUILT = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Blog GraphQL IDE</title></head>
  <body>
    <p>The IDE's files are not built. Run <code>npm run build</code> (or <code>npm install</code>)
    and restart the service.</p>
  </body>
</html>
`;
