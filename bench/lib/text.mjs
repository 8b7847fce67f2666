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

function words(random, count) {
  const out = new Array(count);
  for (let i = 0; i < count; i++) out[i] = random.pick(WORDS);
  return out;
}

function sentence(random) {
  const text = words(random, random.between(6, 18)).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}${random.chance(0.1) ? '?' : '.'}`;
}

export function title(random) {
  const text = words(random, random.between(3, 9)).join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}`;
}

/** Sentences until about `length` characters, in paragraphs. */
export function paragraphs(random, length) {
  const parts = [];
  let size = 0;
  let sinceBreak = 0;
  for (let guard = 0; size < length && guard < 10_000; guard++) {
    const next = sentence(random);
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
