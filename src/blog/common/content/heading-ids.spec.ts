import { JSDOM } from 'jsdom';

import { HeadingIds, slugOf } from './heading-ids';

describe('slugOf', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['  Two  spaces', '--two--spaces'],
    ['C++ & Rust', 'c--rust'],
    ['Self-hosting snake_case', 'self-hosting-snake_case'],
    ['Ünïcödé Straße', 'ünïcödé-straße'],
    ['日本語のタイトル', '日本語のタイトル'],
    ['Версия 2.0', 'версия-20'],
    ['Emoji 🎉 party', 'emoji--party'],
    ['<b>&amp;</b>', 'bampb'],
  ])('should slug %p as %p', (title, slug) => {
    expect(slugOf(title)).toBe(slug);
  });
});

describe('HeadingIds', () => {
  it('should number repeated slugs from 1', () => {
    const ids = new HeadingIds();
    expect(['Intro', 'Intro', 'Intro'].map((title) => ids.next(title))).toEqual([
      'intro',
      'intro-1',
      'intro-2',
    ]);
  });

  it('should call an empty slug "section"', () => {
    const ids = new HeadingIds();
    expect(['', '!!!', 'Section'].map((title) => ids.next(title))).toEqual([
      'section',
      'section-1',
      'section-2',
    ]);
  });

  describe('against a DOM (jsdom)', () => {
    const { document } = new JSDOM('<!DOCTYPE html><body></body>').window;
    const form = document.createElement('form');
    const clobbers = (id: string) => id in document || id in form;
    /** Every property name of the document and of a form that a slug could be. */
    const names = new Set<string>();
    for (let object: object | null = document; object; object = Object.getPrototypeOf(object)) {
      for (const name of Object.getOwnPropertyNames(object)) names.add(name);
    }
    for (let object: object | null = form; object; object = Object.getPrototypeOf(object)) {
      for (const name of Object.getOwnPropertyNames(object)) names.add(name);
    }
    const sluggable = [...names].filter((name) => slugOf(name) === name);

    it('should find the names to test', () => {
      expect(sluggable).toEqual(expect.arrayContaining(['cookie', 'title', 'onclick', 'action']));
    });

    it.each(sluggable)('should not give a heading titled %p an id that clobbers', (name) => {
      expect(clobbers(new HeadingIds().next(name))).toBe(false);
    });
  });
});
