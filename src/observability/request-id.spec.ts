import { requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it("should keep the caller's well-formed x-request-id", () => {
    expect(requestIdOf({ headers: { 'x-request-id': 'Abc.123_x-Y' } })).toBe('Abc.123_x-Y');
    const longest = 'a'.repeat(128);
    expect(requestIdOf({ headers: { 'x-request-id': longest } })).toBe(longest);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too long', 'a'.repeat(129)],
    ['with a space', 'a b'],
    ['with a line break', 'a\nb'],
    ['with other characters', 'id;drop'],
    ['repeated (joined by Node)', 'a, b'],
  ])('should generate a UUID when the header is %s', (_, value) => {
    expect(requestIdOf({ headers: { 'x-request-id': value } })).toMatch(UUID);
  });
});
