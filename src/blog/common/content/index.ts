export { LINK_REL } from './allow-list';
export { renderCommentText, renderPostContent, type RenderedContent } from './markdown';
export { type TocEntry } from './outline';
export {
  EXCERPT_LENGTH,
  excerptOf,
  readingTimeMinutes,
  WORDS_PER_MINUTE,
  wordCountOf,
} from './words';
