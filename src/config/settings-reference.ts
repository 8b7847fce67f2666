// The files written from the settings schema by `npm run docs:settings`: the reference page and
// .env.example. A unit spec compares them with what is committed, so neither can go stale.
import {
  IntegerSetting,
  isComputed,
  Setting,
  SETTING_GROUPS,
  SETTING_LIST,
  SettingGroup,
} from './settings.schema';

/** Where each generated file goes, from the repository's root, and what it holds. */
export const SETTINGS_FILES: readonly { path: string; render: () => string }[] = [
  { path: 'docs/reference/settings.md', render: renderSettingsReference },
  { path: '.env.example', render: renderEnvExample },
];

const SCHEMA_FILE = 'src/config/settings.schema.ts';
const WIDTH = 100;

const ENV_EXAMPLE_HEADER = [
  '# Copy to .env to configure the service: every setting it reads, each at its default. Uncomment and',
  '# change what you need; the real environment wins over the file. Every setting is optional outside',
  '# production; production needs JWT_SECRET. A bad value, or a name in .env one typo away from a',
  '# setting (JWT_SECRT), stops the start-up with one line naming the variable.',
  '#',
  `# Written by npm run docs:settings from ${SCHEMA_FILE};`,
  '# docs/reference/settings.md says more about each setting.',
].join('\n');

const REFERENCE_INTRO = [
  `<!-- Written by npm run docs:settings from ${SCHEMA_FILE}: edit the schema, not this page. -->`,
  '# Settings',
  'Every setting of the service, by group: its default, the values it takes and what it does. ' +
    'Set them as environment variables or in a `.env` file in the working directory; ' +
    '[`.env.example`](../../.env.example) lists every one at its default, ready to copy. ' +
    '[How settings are read and checked](configuration.md) tells how `.env` is read and what ' +
    'happens to a bad value.',
  'Every setting is optional outside production; production needs `JWT_SECRET`. Values are ' +
    'trimmed, and an empty value counts as unset. Integers are digits only. Booleans are `true`, ' +
    '`1`, `yes` or `on`, and `false`, `0`, `no` or `off`, in any case. A bad value stops the ' +
    'service before it starts, with one line that names the variable and the rule:',
  '```text\nInvalid environment variable GRAPHQL_MAX_DEPTH: expected 1-1000, got 0\n```',
].join('\n\n');

/** docs/reference/settings.md: an introduction, then a section per group and one per setting. */
export function renderSettingsReference(): string {
  const groups = groupIds();
  const contents = groups.map((group) => `- [${SETTING_GROUPS[group].title}](#${slug(group)})`);
  const sections = groups.flatMap((group) => [
    `## ${SETTING_GROUPS[group].title}`,
    SETTING_GROUPS[group].intro,
    ...settingsOf(group).flatMap(referenceEntry),
  ]);
  return [REFERENCE_INTRO, contents.join('\n'), ...sections].join('\n\n') + '\n';
}

/** .env.example: the header, then each group with every setting commented out at its default. */
export function renderEnvExample(): string {
  const groups = groupIds().map((group) =>
    [
      `# --- ${SETTING_GROUPS[group].title} ---`,
      ...settingsOf(group).flatMap((setting) => [
        ...comment(envComment(setting)),
        `# ${setting.name}=${exampleValue(setting)}`,
      ]),
    ].join('\n'),
  );
  return [ENV_EXAMPLE_HEADER, ...groups].join('\n\n') + '\n';
}

function referenceEntry(setting: Setting): string[] {
  const facts = [`- Default: ${defaultInWords(setting)}`, `- Allowed: ${allowedInWords(setting)}`];
  if (setting.readBy === 'opentelemetry') facts.push('- Read by: the OpenTelemetry SDK');
  if (setting.readBy === 'scripts') facts.push('- Read by: `npm run check:contract`');
  const text = setting.details ? `${setting.summary} ${setting.details}` : setting.summary;
  return [`### \`${setting.name}\``, text, facts.join('\n')];
}

function defaultInWords(setting: Setting): string {
  const value = setting.default;
  if (value === null) return 'unset';
  if (isComputed(value)) return value.words;
  if (setting.type === 'integer' && typeof value === 'number') {
    const readable = readableAmount(value, setting.unit);
    return readable ? `\`${value}\` (${readable})` : `\`${value}\``;
  }
  return `\`${value}\``;
}

function allowedInWords(setting: Setting): string {
  if (setting.allowed) return setting.allowed;
  switch (setting.type) {
    case 'integer': {
      const max = typeof setting.max === 'number' ? setting.max : `\`${boundName(setting)}\``;
      const unit = setting.unit === 'ms' ? ', in milliseconds' : setting.unit ? ', in bytes' : '';
      return `an integer from ${setting.min} to ${max}${unit}`;
    }
    case 'boolean':
      return '`true` or `false`';
    case 'enum':
      return inWords(setting.values.map((value) => `\`${value}\``));
    default:
      throw new Error(`${setting.name} needs its allowed values in words`);
  }
}

/** The setting an integer's upper bound is, which must be an integer setting of the schema. */
function boundName(setting: IntegerSetting): string {
  const name = typeof setting.max === 'number' ? undefined : setting.max.setting;
  const bound = SETTING_LIST.find((other) => other.name === name);
  if (!bound || bound.type !== 'integer') {
    throw new Error(`${setting.name} is bounded by ${name}, which is no integer setting`);
  }
  return bound.name;
}

/** The larger units of each unit, largest first. */
const LARGER_UNITS: Record<NonNullable<IntegerSetting['unit']>, [number, string][]> = {
  bytes: [
    [2 ** 30, 'GiB'],
    [2 ** 20, 'MiB'],
    [2 ** 10, 'KiB'],
  ],
  ms: [
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ],
};

/** 4 MiB for 4194304 bytes, 10 s for 10000 ms; undefined where that says nothing more. */
function readableAmount(value: number, unit: IntegerSetting['unit']): string | undefined {
  const fit = unit && LARGER_UNITS[unit].find(([size]) => value >= size && value % size === 0);
  return fit ? `${value / fit[0]} ${fit[1]}` : undefined;
}

/** The comment above a setting in .env.example: enum values, summary, computed default. */
function envComment(setting: Setting): string {
  const parts: string[] = [];
  if (setting.type === 'enum') parts.push(`${inWords(setting.values)}.`);
  parts.push(setting.summary);
  if (isComputed(setting.default)) parts.push(`Default: ${setting.default.words}.`);
  if (setting.readBy === 'opentelemetry') parts.push('Read by the OpenTelemetry SDK.');
  return plainText(parts.join(' '));
}

function exampleValue(setting: Setting): string {
  const value = setting.default;
  if (value === null) return '';
  if (isComputed(value)) return value.example;
  return String(value);
}

/** Markdown as plain text: code spans and links lose their marks. */
function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`([^`]*)`/g, '$1');
}

/** `text` as `#` comment lines of at most WIDTH characters, where its words allow. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line !== '#' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

function inWords(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function groupIds(): SettingGroup[] {
  return Object.keys(SETTING_GROUPS) as SettingGroup[];
}

function settingsOf(group: SettingGroup): Setting[] {
  return SETTING_LIST.filter((setting) => setting.group === group);
}

/** The anchor GitHub gives a group's heading. */
function slug(group: SettingGroup): string {
  return SETTING_GROUPS[group].title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}
