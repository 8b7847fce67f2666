import { translate } from './translate';

describe('translate', () => {
  const page =
    'SELECT x.id FROM posts x WHERE x.author_id = :viewerId OR x.id IN ' +
    '(SELECT f.followee_id FROM follows f WHERE f.follower_id = :viewerId) LIMIT :first';

  it('should give a name used twice one $k on PostgreSQL', () => {
    expect(translate(page, 'postgres')).toEqual({
      text:
        'SELECT x.id FROM posts x WHERE x.author_id = $1 OR x.id IN ' +
        '(SELECT f.followee_id FROM follows f WHERE f.follower_id = $1) LIMIT $2',
      names: ['viewerId', 'first'],
      keyLists: [false, false],
    });
  });

  it('should bind a name used twice at each of its +? on SQLite', () => {
    expect(translate(page, 'sqlite')).toEqual({
      text:
        'SELECT x.id FROM posts x WHERE x.author_id = +? OR x.id IN ' +
        '(SELECT f.followee_id FROM follows f WHERE f.follower_id = +?) LIMIT +?',
      names: ['viewerId', 'viewerId', 'first'],
      keyLists: [false, false, false],
    });
  });

  describe('key lists', () => {
    const member =
      'SELECT l.post_id FROM likes l WHERE l.user_id = :userId AND l.post_id IN (:...postIds)';
    const table = 'SELECT k.value FROM KEYS(:...postIds) k WHERE k.value <> :postId';

    it('should test membership with = ANY on PostgreSQL and json_each on SQLite', () => {
      expect(translate(member, 'postgres')).toEqual({
        text: 'SELECT l.post_id FROM likes l WHERE l.user_id = $1 AND l.post_id = ANY($2)',
        names: ['userId', 'postIds'],
        keyLists: [false, true],
      });
      expect(translate(member, 'sqlite')).toEqual({
        text:
          'SELECT l.post_id FROM likes l WHERE l.user_id = +? AND ' +
          'l.post_id IN (SELECT value FROM json_each(+?))',
        names: ['userId', 'postIds'],
        keyLists: [false, true],
      });
    });

    it('should read a key list as a table of one column, value', () => {
      expect(translate(table, 'postgres').text).toBe(
        'SELECT k.value FROM (SELECT unnest(CAST($1 AS varchar[])) AS value) k WHERE k.value <> $2',
      );
      expect(translate(table, 'sqlite').text).toBe(
        'SELECT k.value FROM (SELECT value FROM json_each(+?)) k WHERE k.value <> +?',
      );
    });

    it('should refuse a key list outside IN (...) and KEYS(...)', () => {
      expect(() => translate('SELECT :...ids', 'sqlite')).toThrow(/IN \(\.\.\.\) or KEYS/);
    });

    it('should refuse a name used both as a key list and as a value', () => {
      const text = 'SELECT 1 FROM posts p WHERE p.id = :ids OR p.id IN (:...ids)';
      expect(() => translate(text, 'postgres')).toThrow(/both as a key list and as a value/);
    });
  });

  it('should take the text of its database when the statement has one per database', () => {
    const text = { sqlite: 'SELECT :a, :b', postgres: 'SELECT :b, :a, :b' };
    expect(translate(text, 'sqlite')).toMatchObject({ text: 'SELECT +?, +?', names: ['a', 'b'] });
    expect(translate(text, 'postgres')).toMatchObject({
      text: 'SELECT $1, $2, $1',
      names: ['b', 'a'],
    });
  });

  it('should leave quoted text and PostgreSQL casts alone', () => {
    const text = `SELECT ':not', "a:b", x::text FROM t WHERE t.id = :id`;
    expect(translate(text, 'postgres')).toEqual({
      text: `SELECT ':not', "a:b", x::text FROM t WHERE t.id = $1`,
      names: ['id'],
      keyLists: [false],
    });
  });
});
