// The specification's client side, as a browser runs it: Apollo Client on a page of another
// origin reads the feed, creates posts with createPost(input:) and puts each new post at the
// top of the cached feed itself (the service does not update client caches), and shows the
// `message` of a failed mutation. Bundled by test/apollo-client.browser.e2e-spec.ts with esbuild;
// browser code is .tsx so that the Node build's tsc (no DOM types) leaves it alone.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';

interface FeedItem {
  id: string;
  content: string;
  createdAt: string;
  author: { name: string; handle: string; avatar: string | null };
  likesCount: number;
  isLikedByMe: boolean;
}

const FEED_ITEM = gql`
  fragment FeedItem on Post {
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
`;

const FEED = gql`
  query Feed {
    feed {
      ...FeedItem
    }
  }
  ${FEED_ITEM}
`;

// The new post carries every field the feed selects, so the cache can show it without asking.
const CREATE_POST = gql`
  mutation CreatePost($input: CreatePostInput!) {
    createPost(input: $input) {
      title
      ...FeedItem
    }
  }
  ${FEED_ITEM}
`;

const params = new URLSearchParams(location.search);
const client = new ApolloClient({
  link: new HttpLink({
    uri: params.get('api') ?? '/graphql',
    headers: { authorization: params.get('token') ?? '' },
  }),
  cache: new InMemoryCache(),
});

const feedList = document.getElementById('feed')!;
const status = document.getElementById('status')!;
const errorBox = document.getElementById('error')!;
const form = document.getElementById('new-post') as HTMLFormElement;

/** Text only: post content is shown exactly as stored, never as HTML. */
function renderFeed(feed: readonly FeedItem[]): void {
  feedList.replaceChildren(
    ...feed.map((post) => {
      const item = document.createElement('li');
      item.dataset.id = post.id;
      const author = document.createElement('strong');
      author.textContent = `${post.author.name} @${post.author.handle}`;
      const content = document.createElement('span');
      content.className = 'content';
      content.textContent = post.content;
      item.append(author, ' ', content, ` · ${post.likesCount} likes`);
      return item;
    }),
  );
}

client.watchQuery<{ feed: FeedItem[] }>({ query: FEED }).subscribe((result) => {
  if (result.error) errorBox.textContent = result.error.message;
  if (result.data?.feed) renderFeed(result.data.feed);
  status.textContent = result.loading ? 'Loading…' : `${result.data?.feed?.length ?? 0} posts`;
  document.body.dataset.feedLoaded = String(!result.loading);
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  errorBox.textContent = '';
  status.textContent = 'Publishing…';
  client
    .mutate<{ createPost: FeedItem & { title: string } }>({
      mutation: CREATE_POST,
      variables: { input: { title: data.get('title'), content: data.get('content') } },
      update(cache, { data: created }) {
        if (!created) return;
        cache.updateQuery<{ feed: FeedItem[] }>({ query: FEED }, (current) =>
          current ? { feed: [created.createPost, ...current.feed] } : current,
        );
      },
    })
    .then(() => {
      status.textContent = 'Published';
      form.reset();
    })
    .catch((error: Error) => {
      status.textContent = 'Failed';
      errorBox.textContent = error.message;
    });
});
