import { canonicalIdentifier } from './user-identifiers';

describe('canonicalIdentifier', () => {
  it.each([
    ['a full-width email', 'ＡＤＡ@ｅｘａｍｐｌｅ.ｃｏｍ', 'ada@example.com'],
    ['a full-width handle', 'Ａｄａ＿Ｌ', 'ada_l'],
    ['ideographic and ASCII spaces around it', '\u3000 Ada@Example.com \t', 'ada@example.com'],
    ['a Kelvin sign', '\u212Aate', 'kate'],
    ['a decomposed accent', 'Ame\u0301lie', 'amélie'],
  ])('should read %s as its plain lower-case form', (_, input, expected) => {
    expect(canonicalIdentifier(input)).toBe(expected);
  });

  it('should leave a canonical value as it is', () => {
    for (const value of ['ＡＤＡ@example.com', '\u0130stanbul', 'Straße', '\u212Bngström']) {
      const once = canonicalIdentifier(value);
      expect(canonicalIdentifier(once)).toBe(once);
    }
  });
});
