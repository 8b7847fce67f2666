import { isUuid, newId } from './uuid';

describe('isUuid', () => {
  it.each([
    ['an id the service issues (v7)', newId()],
    ['the same id in upper case', newId().toUpperCase()],
    ['a v7 of the tests', '01900000-0000-7000-8000-000000000000'],
    ['a v4', '00000000-0000-4000-8000-000000000000'],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
    ['the max UUID', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  ])('should accept %s', (_name, value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    ['the empty string', ''],
    ['SQL', "1' OR 1=1"],
    ['no hyphens', '019000000000700080000000000000000'],
    ['braces', '{01900000-0000-7000-8000-000000000000}'],
    ['a trailing newline', '01900000-0000-7000-8000-000000000000\n'],
    ['a space', ' 01900000-0000-7000-8000-000000000000'],
    ['one digit short', '01900000-0000-7000-8000-00000000000'],
    ['one digit too many', '01900000-0000-7000-8000-0000000000000'],
    ['a letter beyond f', '01900000-0000-7000-8000-00000000000g'],
    ['version 0 that is not nil', '01900000-0000-0000-8000-000000000000'],
    ['version 9', '01900000-0000-9000-8000-000000000000'],
    ['the NCS variant (0xxx)', '01900000-0000-7000-0000-000000000000'],
    ['the Microsoft variant (110x)', '01900000-0000-7000-c000-000000000000'],
  ])('should refuse %s', (_name, value) => {
    expect(isUuid(value)).toBe(false);
  });

  it('should issue v7 ids that sort by creation', () => {
    const ids = Array.from({ length: 50 }, () => newId());
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });
});
