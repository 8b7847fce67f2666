import {
  foldedSearchText,
  foldedText,
  SEARCHED_CONTENT_LENGTH,
  searchedContent,
} from './post-search-text';

describe('foldedSearchText', () => {
  it('should leave text that has no compatibility form alone', () => {
    expect(foldedSearchText({ title: 'Plain title', content: 'Un café, ø and ß.' })).toBeNull();
    expect(foldedSearchText({ title: '', content: '' })).toBeNull();
  });

  it('should fold fullwidth letters and ligatures, in the title or the content alone', () => {
    expect(foldedSearchText({ title: 'Ｇｒａｐｈ', content: 'plain' })).toEqual({
      titleFolded: 'Graph',
      contentFolded: null,
    });
    expect(foldedSearchText({ title: 'plain', content: 'the ﬁrst ﬂy' })).toEqual({
      titleFolded: null,
      contentFolded: 'the first fly',
    });
  });

  it('should compose a decomposed accent, as NFKC does', () => {
    expect(foldedSearchText({ title: 'cre\u0300me', content: 'x' })?.titleFolded).toBe('crème');
  });
});

describe('foldedText', () => {
  it('should answer the NFKC form of a text, or null where it is the same', () => {
    expect(foldedText('the ﬁrst ｆｅｎｎｅｃ')).toBe('the first fennec');
    expect(foldedText('Un café, ø and ß.')).toBeNull();
  });
});

describe('searchedContent', () => {
  it('should keep a content within the length as it is', () => {
    const content = 'x'.repeat(SEARCHED_CONTENT_LENGTH);
    expect(searchedContent(content)).toBe(content);
  });

  it('should cut a longer one after as many code points as the databases count', () => {
    expect(searchedContent('y'.repeat(SEARCHED_CONTENT_LENGTH + 1))).toHaveLength(
      SEARCHED_CONTENT_LENGTH,
    );
    // An emoji is one character in two UTF-16 units, never cut in two.
    const emoji = '😀'.repeat(SEARCHED_CONTENT_LENGTH);
    expect(searchedContent(`${emoji}z`)).toBe(emoji);
    expect([...searchedContent(`a${emoji}`)]).toHaveLength(SEARCHED_CONTENT_LENGTH);
  });
});
