import { GraphQLError } from 'graphql';
import { toPage } from './pagination';

describe('toPage', () => {
  it('should default first to 20 and after to null', () => {
    expect(toPage({})).toEqual({ first: 20, after: null });
    expect(toPage({ first: null, after: null })).toEqual({ first: 20, after: null });
  });

  it('should accept 0 to 100 and an id', () => {
    const after = '01900000-0000-7000-8000-000000000000';
    expect(toPage({ first: 0 })).toEqual({ first: 0, after: null });
    expect(toPage({ first: 100, after })).toEqual({ first: 100, after });
  });

  it.each([[-1], [101], [1.5]])('should refuse first = %p as BAD_USER_INPUT', (first) => {
    const error = (() => {
      try {
        toPage({ first });
      } catch (e) {
        return e as GraphQLError;
      }
    })();
    expect(error?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'first' });
  });

  it('should refuse an after that is not an id', () => {
    expect(() => toPage({ after: "1' OR 1=1" })).toThrow(/after must be the id/);
  });
});
