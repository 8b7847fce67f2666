import { foldedSearchText } from './post-search-text';

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
