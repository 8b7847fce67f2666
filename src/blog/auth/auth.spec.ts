import { tokenFromHeader } from './access-token.service';
import { handleStem } from './auth.service';

describe('tokenFromHeader', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['   ', null],
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer    abc.def.ghi ', 'abc.def.ghi'],
    ['abc.def.ghi', 'abc.def.ghi'],
  ])('should read %p as %p', (header, token) => {
    expect(tokenFromHeader(header)).toBe(token);
  });
});

describe('handleStem', () => {
  it.each([
    ['Ada Lovelace', 'ada_lovelace'],
    ['  Émile   Zola!! ', 'emile_zola'],
    ['李', 'user'],
    ['Al', 'al_user'],
    ['A very long display name that goes on and on', 'a_very_long_display_name'],
  ])('should turn %p into %p', (name, stem) => {
    expect(handleStem(name)).toBe(stem);
    expect(stem).toMatch(/^[a-z0-9_]{3,30}$/);
  });
});
