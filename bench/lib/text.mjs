/** Plain ASCII text of blog-like shape (response sizes are compared in characters = bytes). */

const WORDS = (
  'the a an and or but of to in on at for with from by about into over after before under ' +
  'between through during without within along across behind beyond toward upon ' +
  'we you they it this that these those our your their my his her its one two three ' +
  'is are was were be been being have has had do does did can could will would should may ' +
  'might must make made take took give gave find found think thought know knew see saw ' +
  'build built ship shipped write wrote read test tested measure measured learn learned ' +
  'code data query queries server servers client clients cache caches index indexes table ' +
  'tables row rows column schema type types field fields request requests response page ' +
  'pages post posts comment comments user users feed graph node edge batch loader latency ' +
  'throughput memory disk network thread process event loop promise error errors log logs ' +
  'release version branch commit review deploy rollback metric metrics trace traces ' +
  'simple small large fast slow quick careful honest clear useful strange common rare ' +
  'new old first last next good better best bad worse early late real whole ' +
  'day days week weeks month year time times morning evening night coffee team teams ' +
  'project projects idea ideas problem problems answer answers question questions story ' +
  'garden kitchen bicycle mountain river city train book books music film walk travel ' +
  'because while when where why how what which who whose although unless until since ' +
  'really quite very still just also only even almost again never always often sometimes'
).split(' ');

const FIRST_NAMES = (
  'Ada Alan Grace Linus Barbara Ken Dennis Margaret Donald Edsger Frances John Radia ' +
  'Tim Guido Yukihiro Brendan Anders Bjarne James Sophie Hedy Katherine Dorothy Mary ' +
  'Jean Lynn Evelyn Carol Karen Leslie Niklaus Tony Robin Butler Whitfield Ward Ivan ' +
  'Adele Joan Shafi Silvio Leonard Judea Raj Fei Andrew Yoshua Geoffrey Daphne Cynthia'
).split(' ');

const LAST_NAMES = (
  'Lovelace Turing Hopper Torvalds Liskov Thompson Ritchie Hamilton Knuth Dijkstra Allen ' +
  'McCarthy Perlman BernersLee Rossum Matsumoto Eich Hejlsberg Stroustrup Gosling Wilson ' +
  'Lamarr Johnson Vaughan Keller Bartik Conway Berners Shaw Lamport Wirth Hoare Milner ' +
  'Lampson Diffie Hellman Sutherland Goldberg Micali Goldwasser Adleman Pearl Reddy Li ' +
  'Ng Bengio Hinton Koller Dwork Kay Engelbart Cerf Kahn Metcalfe Backus Naur Floyd'
).split(' ');

export function personName(random) {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

const everyday = (random) => random.pick(WORDS);

function words(random, count, draw) {
  const out = new Array(count);
  for (let i = 0; i < count; i++) out[i] = draw(random);
  return out;
}

function sentence(random, draw) {
  const text = words(random, random.between(6, 18), draw).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}${random.chance(0.1) ? '?' : '.'}`;
}

function titleOf(random, draw) {
  const text = words(random, random.between(3, 9), draw).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}`;
}

export const title = (random) => titleOf(random, everyday);

/** Sentences until about `length` characters, in paragraphs. */
export const paragraphs = (random, length) => paragraphsOf(random, length, everyday);

function paragraphsOf(random, length, draw) {
  const parts = [];
  let size = 0;
  let sinceBreak = 0;
  for (let guard = 0; size < length && guard < 10_000; guard++) {
    const next = sentence(random, draw);
    const separator =
      parts.length === 0 ? '' : sinceBreak >= 4 && random.chance(0.4) ? '\n\n' : ' ';
    sinceBreak = separator === '\n\n' ? 0 : sinceBreak + 1;
    parts.push(separator, next);
    size += separator.length + next.length;
  }
  return parts.join('');
}

export function shortText(random, min, max) {
  return paragraphs(random, random.between(min, max));
}

const ONSETS = 'b c d f g h j k l m n p r s t v w z br ch cl dr fl gr pl pr sh sl st th tr'.split(
  ' ',
);
const VOWELS = 'a e i o u a e i o u ai ea ee io oa ou'.split(' ');
const CODAS = ' n r s l t m nd st rk'.split(' ');

function madeUpWord(random) {
  let word = '';
  for (let n = random.between(2, 3); n > 0; n--) {
    word +=
      random.pick(ONSETS) + random.pick(VOWELS) + (random.chance(0.25) ? random.pick(CODAS) : '');
  }
  return word;
}

/**
 * `size` distinct lowercase words, most frequent first: the everyday words above (function
 * words, then a blog's common nouns and verbs), then made-up words of 2 or 3 syllables.
 */
export function zipfVocabulary(random, size) {
  const vocabulary = [...new Set(WORDS)].slice(0, size);
  const seen = new Set(vocabulary);
  while (vocabulary.length < size) {
    const word = madeUpWord(random);
    if (seen.has(word)) continue;
    seen.add(word);
    vocabulary.push(word);
  }
  return vocabulary;
}

/**
 * Titles and paragraphs whose words follow Zipf's law over `vocabulary`, as words in real prose
 * do: the word of rank r (1 = the first) is drawn with a probability proportional to
 * 1 / r^exponent. So a few words are in most posts, and most words in few.
 */
export function zipfText(vocabulary, exponent = 1) {
  const cumulative = new Float64Array(vocabulary.length);
  let total = 0;
  for (let r = 0; r < vocabulary.length; r++) {
    total += 1 / (r + 1) ** exponent;
    cumulative[r] = total;
  }
  const draw = (random) => {
    const target = random.next() * total;
    let low = 0;
    let high = vocabulary.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle] <= target) low = middle + 1;
      else high = middle;
    }
    return vocabulary[low];
  };
  return {
    title: (random) => titleOf(random, draw),
    paragraphs: (random, length) => paragraphsOf(random, length, draw),
  };
}
