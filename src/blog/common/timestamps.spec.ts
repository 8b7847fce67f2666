import { GraphQLISODateTime } from '@nestjs/graphql';
import { Kind, parseValue as parseLiteralText } from 'graphql';

import { BlogDateTime, isoTimestamp } from './timestamps';

/** What `run` gives (a Date as its time), or the class and message of what it throws. */
function outcome(run: () => unknown): unknown {
  try {
    const value = run();
    return value instanceof Date ? { date: String(value.getTime()) } : value;
  } catch (error) {
    return { threw: (error as Error).constructor.name, message: (error as Error).message };
  }
}

/** Every ms of a few days' edges, years 0 to 9999 drawn at random, and what lies outside them. */
function instants(): number[] {
  const edges = [
    0,
    -1,
    1,
    951_782_400_000,
    951_868_800_000,
    4_107_542_400_000,
    -62_167_219_200_000,
    -62_167_219_200_001,
    -62_162_035_200_000,
    253_402_300_799_999,
    253_402_300_800_000,
    8.64e15,
    -8.64e15,
    8.64e15 + 1,
    -8.64e15 - 1,
    NaN,
    Infinity,
    -Infinity,
    0.5,
    -0.5,
    1e12 + 0.999,
  ];
  let seed = 20_261_129;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const drawn = Array.from({ length: 20_000 }, () =>
    Math.floor(-62_167_219_200_000 + random() * (253_402_300_800_000 + 62_167_219_200_000)),
  );
  const wide = Array.from({ length: 2_000 }, () => Math.floor((random() * 2 - 1) * 8.64e15));
  return [...edges, ...drawn, ...wide];
}

describe('isoTimestamp', () => {
  it('should write every instant as Date#toISOString does, and throw where it throws', () => {
    const differences = instants().filter(
      (ms) =>
        JSON.stringify(outcome(() => isoTimestamp(ms))) !==
        JSON.stringify(outcome(() => new Date(ms).toISOString())),
    );
    expect(differences).toEqual([]);
  });

  it('should write the first and the last day of each month of a leap year and of others', () => {
    for (const year of [1900, 1970, 2000, 2024, 2026, 2100]) {
      for (let month = 0; month < 12; month++) {
        for (const ms of [Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1) - 1]) {
          expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
        }
      }
    }
  });
});

describe('BlogDateTime', () => {
  const values: unknown[] = [
    ...instants()
      .slice(0, 2_000)
      .map((ms) => new Date(ms)),
    '2019-12-03T09:54:33Z',
    1_700_000_000_000,
    null,
    undefined,
    {},
  ];

  it('should be Nest’s DateTime scalar by name and description', () => {
    expect(BlogDateTime.name).toBe(GraphQLISODateTime.name);
    expect(BlogDateTime.description).toBe(GraphQLISODateTime.description);
  });

  it('should answer every value as Nest’s scalar does', () => {
    for (const value of values) {
      expect(outcome(() => BlogDateTime.serialize(value))).toEqual(
        outcome(() => GraphQLISODateTime.serialize(value)),
      );
    }
  });

  it('should read variables and literals as Nest’s scalar does', () => {
    const inputs: unknown[] = ['2019-12-03T09:54:33Z', '2019-12-03', 'soon', 0, 1e12, null];
    for (const input of inputs) {
      expect(outcome(() => BlogDateTime.parseValue(input))).toEqual(
        outcome(() => GraphQLISODateTime.parseValue(input)),
      );
    }
    for (const text of ['"2019-12-03T09:54:33Z"', '"not a date"', '12', 'true']) {
      const literal = parseLiteralText(text);
      expect(outcome(() => BlogDateTime.parseLiteral(literal))).toEqual(
        outcome(() => GraphQLISODateTime.parseLiteral(literal)),
      );
    }
    expect(parseLiteralText('"x"').kind).toBe(Kind.STRING);
  });
});
