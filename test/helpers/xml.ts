/**
 * A well-formedness check of an XML document, character by character, as an XML parser makes it
 * before it builds anything: one root element, every tag closed in order, attributes quoted and
 * not repeated, `<` only as markup, `&` only as a reference, comments without `--`. It reads no
 * DTD (a document with one is refused) and knows only XML's five named entities.
 */

const NAMED_ENTITIES = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);

function isNameStart(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    (char >= 'a' && char <= 'z') ||
    (char >= 'A' && char <= 'Z') ||
    char === '_' ||
    char === ':' ||
    code >= 0xc0
  );
}

function isNameChar(char: string): boolean {
  return isNameStart(char) || (char >= '0' && char <= '9') || char === '-' || char === '.';
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

function isDigit(char: string, hex: boolean): boolean {
  if (char >= '0' && char <= '9') return true;
  return hex && ((char >= 'a' && char <= 'f') || (char >= 'A' && char <= 'F'));
}

class NotWellFormed extends Error {}

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.at >= this.text.length;
  }

  peek(offset = 0): string {
    return this.text[this.at + offset] ?? '';
  }

  startsWith(prefix: string): boolean {
    return this.text.startsWith(prefix, this.at);
  }

  fail(problem: string): never {
    const before = this.text.slice(0, this.at);
    const line = before.split('\n').length;
    const column = this.at - before.lastIndexOf('\n');
    throw new NotWellFormed(`line ${line}, column ${column}: ${problem}`);
  }

  expect(literal: string): void {
    if (!this.startsWith(literal)) this.fail(`expected ${JSON.stringify(literal)}`);
    this.at += literal.length;
  }

  skipSpaces(): boolean {
    const from = this.at;
    while (isSpace(this.peek())) this.at += 1;
    return this.at > from;
  }

  name(): string {
    if (!isNameStart(this.peek())) this.fail('expected a name');
    const from = this.at;
    while (isNameChar(this.peek())) this.at += 1;
    return this.text.slice(from, this.at);
  }

  /** Skips to just after `end`, refusing `forbidden` on the way. */
  until(end: string, what: string, forbidden?: string): void {
    const stop = this.text.indexOf(end, this.at);
    if (stop === -1) this.fail(`${what} is not closed`);
    if (forbidden) {
      const bad = this.text.indexOf(forbidden, this.at);
      if (bad !== -1 && bad < stop) {
        this.at = bad;
        this.fail(`${JSON.stringify(forbidden)} inside ${what}`);
      }
    }
    this.at = stop + end.length;
  }

  /** A reference after `&`: a named entity, `&#123;` or `&#x7B;`. */
  reference(): void {
    this.expect('&');
    if (this.peek() === '#') {
      this.at += 1;
      const hex = this.peek() === 'x';
      if (hex) this.at += 1;
      const from = this.at;
      while (isDigit(this.peek(), hex)) this.at += 1;
      if (this.at === from) this.fail('a character reference without digits');
    } else {
      const entity = this.name();
      if (!NAMED_ENTITIES.has(entity)) this.fail(`an unknown entity &${entity};`);
    }
    this.expect(';');
  }

  /** Comments and processing instructions, and spaces, where markup may stand. */
  misc(): boolean {
    if (this.startsWith('<!--')) {
      this.at += 4;
      this.until('-->', 'a comment', '--');
      return true;
    }
    if (this.startsWith('<?')) {
      this.at += 2;
      this.until('?>', 'a processing instruction');
      return true;
    }
    return this.skipSpaces();
  }

  attributes(): void {
    const seen = new Set<string>();
    for (;;) {
      const spaced = this.skipSpaces();
      if (this.peek() === '>' || this.startsWith('/>')) return;
      if (!spaced) this.fail('expected a space before an attribute');
      const name = this.name();
      if (seen.has(name)) this.fail(`the attribute ${name} is repeated`);
      seen.add(name);
      this.skipSpaces();
      this.expect('=');
      this.skipSpaces();
      const quote = this.peek();
      if (quote !== '"' && quote !== "'") this.fail(`the value of ${name} is not quoted`);
      this.at += 1;
      while (this.peek() !== quote) {
        if (this.done) this.fail(`the value of ${name} is not closed`);
        if (this.peek() === '<') this.fail(`"<" in the value of ${name}`);
        if (this.peek() === '&') this.reference();
        else this.at += 1;
      }
      this.at += 1;
    }
  }

  /** An element, its content and its end tag. */
  element(): void {
    this.expect('<');
    const name = this.name();
    this.attributes();
    if (this.startsWith('/>')) {
      this.at += 2;
      return;
    }
    this.expect('>');
    for (;;) {
      if (this.done) this.fail(`<${name}> is not closed`);
      if (this.startsWith('</')) {
        this.at += 2;
        const closing = this.name();
        if (closing !== name) this.fail(`</${closing}> closes <${name}>`);
        this.skipSpaces();
        this.expect('>');
        return;
      }
      if (this.startsWith('<![CDATA[')) {
        this.at += 9;
        this.until(']]>', 'a CDATA section');
      } else if (this.startsWith('<!--') || this.startsWith('<?')) {
        this.misc();
      } else if (this.startsWith('<!')) {
        this.fail('a declaration inside an element');
      } else if (this.peek() === '<') {
        this.element();
      } else if (this.peek() === '&') {
        this.reference();
      } else if (this.startsWith(']]>')) {
        this.fail('"]]>" in text');
      } else {
        this.at += 1;
      }
    }
  }

  document(): void {
    if (this.startsWith('<?xml')) this.until('?>', 'the XML declaration');
    while (this.misc());
    if (this.startsWith('<!DOCTYPE')) this.fail('a DTD, which this check does not read');
    if (this.peek() !== '<') this.fail('expected the root element');
    this.element();
    while (this.misc());
    if (!this.done) this.fail('something after the root element');
  }
}

/** Why `text` is not a well-formed XML document, or null when it is. */
export function xmlProblem(text: string): string | null {
  try {
    new Reader(text).document();
    return null;
  } catch (error) {
    if (error instanceof NotWellFormed) return error.message;
    throw error;
  }
}

/** The name of the root element of a well-formed document, and its attributes' raw values. */
export function rootElementOf(text: string): { name: string; attributes: Map<string, string> } {
  const reader = new Reader(text);
  if (reader.startsWith('<?xml')) reader.until('?>', 'the XML declaration');
  while (reader.misc());
  reader.expect('<');
  const name = reader.name();
  const attributes = new Map<string, string>();
  for (;;) {
    reader.skipSpaces();
    if (reader.peek() === '>' || reader.startsWith('/>')) return { name, attributes };
    const attribute = reader.name();
    reader.skipSpaces();
    reader.expect('=');
    reader.skipSpaces();
    const quote = reader.peek();
    const end = text.indexOf(quote, reader.at + 1);
    attributes.set(attribute, text.slice(reader.at + 1, end));
    reader.at = end + 1;
  }
}
