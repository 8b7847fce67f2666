// Draws docs/assets/architecture.svg from docs/assets/architecture.json: boxes on a grid, the
// groups around them and the arrows between them. `npm run docs:diagram` writes the picture;
// `--check` writes nothing and fails when the committed one differs (test/docs.e2e-spec.ts runs it).
//
// The description names each box's column and row, and each arrow's ends; this script does the
// geometry, so a change to the picture is a change to the JSON, reviewed as text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SOURCE = 'docs/assets/architecture.json';
const TARGET = 'docs/assets/architecture.svg';

const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";
const LINE_HEIGHT = 16;
const TITLE_SIZE = 14;
const TEXT_SIZE = 12;
const PADDING = 10;

/** Escapes text for an XML attribute or element. */
function xml(text) {
  return String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** A number as the SVG writes it: at most one decimal, no trailing zero. */
function n(value) {
  return String(Math.round(value * 10) / 10);
}

/** Each box's rectangle, from its column and row on the description's grid. */
function placeBoxes(spec) {
  const { cellWidth, cellHeight, gapX, gapY, margin } = spec.grid;
  const top = margin + (spec.title ? 34 : 0);
  const boxes = new Map();
  for (const box of spec.boxes) {
    const span = box.span ?? 1;
    const lines = box.lines ?? [];
    const height =
      box.height ?? Math.max(cellHeight, PADDING * 2 + LINE_HEIGHT * (1 + lines.length));
    const width = span * cellWidth + (span - 1) * gapX;
    const x = margin + box.col * (cellWidth + gapX);
    const rowTop = top + box.row * (cellHeight + gapY);
    const y = rowTop + (box.offsetY ?? 0);
    if (boxes.has(box.id)) throw new Error(`${SOURCE}: two boxes are called ${box.id}`);
    boxes.set(box.id, { ...box, lines, x, y, width, height });
  }
  return boxes;
}

/** The point at `at` (0 to 1) along one side of a box. */
function sidePoint(box, side, at = 0.5) {
  switch (side) {
    case 'left':
      return { x: box.x, y: box.y + box.height * at };
    case 'right':
      return { x: box.x + box.width, y: box.y + box.height * at };
    case 'top':
      return { x: box.x + box.width * at, y: box.y };
    case 'bottom':
      return { x: box.x + box.width * at, y: box.y + box.height };
    default:
      throw new Error(`${SOURCE}: no side called ${side}`);
  }
}

/** The side of `from` that faces `to`, when the description does not name one. */
function facingSide(from, to) {
  const dx = to.x + to.width / 2 - (from.x + from.width / 2);
  const dy = to.y + to.height / 2 - (from.y + from.height / 2);
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy > 0 ? 'bottom' : 'top';
}

const HORIZONTAL = new Set(['left', 'right']);

/** How far an arrow between two same sides runs outside them. */
const DETOUR = { left: 16, right: 16, top: 16, bottom: 16 };

/**
 * The corners of an arrow's path: straight when its ends line up, otherwise one or two right
 * angles, turning halfway between two sides that face each other.
 */
function route(start, startSide, end, endSide) {
  // Ends within a pixel of each other line up: the arrow is drawn straight.
  if (HORIZONTAL.has(startSide) && HORIZONTAL.has(endSide) && Math.abs(start.y - end.y) < 1) {
    start = { ...start, y: end.y };
  }
  if (!HORIZONTAL.has(startSide) && !HORIZONTAL.has(endSide) && Math.abs(start.x - end.x) < 1) {
    start = { ...start, x: end.x };
  }
  const points = [start];
  const fromAcross = HORIZONTAL.has(startSide);
  const toAcross = HORIZONTAL.has(endSide);
  if (startSide === endSide) {
    // Out of one side and into the same side of another box: a detour around both.
    const out = DETOUR[startSide];
    if (fromAcross) {
      const x =
        startSide === 'left' ? Math.min(start.x, end.x) - out : Math.max(start.x, end.x) + out;
      points.push({ x, y: start.y }, { x, y: end.y });
    } else {
      const y =
        startSide === 'top' ? Math.min(start.y, end.y) - out : Math.max(start.y, end.y) + out;
      points.push({ x: start.x, y }, { x: end.x, y });
    }
  } else if (fromAcross && toAcross && start.y !== end.y) {
    const midX = (start.x + end.x) / 2;
    points.push({ x: midX, y: start.y }, { x: midX, y: end.y });
  } else if (!fromAcross && !toAcross && start.x !== end.x) {
    const midY = (start.y + end.y) / 2;
    points.push({ x: start.x, y: midY }, { x: end.x, y: midY });
  } else if (fromAcross && !toAcross) {
    points.push({ x: end.x, y: start.y });
  } else if (!fromAcross && toAcross) {
    points.push({ x: start.x, y: end.y });
  }
  points.push(end);
  return points;
}

/** Where an arrow's label goes: beside the middle of its longest segment. */
function labelPlace(points) {
  let best = { length: -1 };
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length > best.length) best = { length, a, b };
  }
  const { a, b } = best;
  const across = a.y === b.y;
  return {
    x: (a.x + b.x) / 2 + (across ? 0 : 6),
    y: (a.y + b.y) / 2 + (across ? -6 : 4),
    anchor: across ? 'middle' : 'start',
  };
}

function drawGroup(group, boxes, inset) {
  const members = group.boxes.map((id) => {
    const box = boxes.get(id);
    if (!box) throw new Error(`${SOURCE}: group "${group.label}" names no box ${id}`);
    return box;
  });
  const pad = group.padding ?? inset;
  const x = Math.min(...members.map((b) => b.x)) - pad;
  const y = Math.min(...members.map((b) => b.y)) - pad - 18;
  const right = Math.max(...members.map((b) => b.x + b.width)) + pad;
  const bottom = Math.max(...members.map((b) => b.y + b.height)) + pad;
  return [
    `  <g class="group">`,
    `    <rect x="${n(x)}" y="${n(y)}" width="${n(right - x)}" height="${n(bottom - y)}" rx="12" fill="${group.fill ?? '#f6f8fa'}" stroke="#8c959f" stroke-dasharray="6 4"/>`,
    `    <text x="${n(x + 10)}" y="${n(y + 16)}" font-size="${TEXT_SIZE}" font-weight="600" fill="#57606a">${xml(group.label)}</text>`,
    `  </g>`,
  ];
}

function drawBox(box) {
  const fill = box.fill ?? '#ffffff';
  const round = box.shape === 'round' ? box.height / 2 : 6;
  const shape =
    box.shape === 'store'
      ? storeShape(box, fill)
      : `    <rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" rx="${n(Math.min(round, 24))}" fill="${fill}" stroke="#24292f" stroke-width="1.2"/>`;
  const textBlock = (1 + box.lines.length) * LINE_HEIGHT;
  const first = box.y + (box.height - textBlock) / 2 + LINE_HEIGHT - 3;
  const cx = box.x + box.width / 2;
  const text = [
    `    <text x="${n(cx)}" y="${n(first)}" text-anchor="middle" font-size="${TITLE_SIZE}" font-weight="600" fill="#24292f">${xml(box.title)}</text>`,
    ...box.lines.map(
      (line, i) =>
        `    <text x="${n(cx)}" y="${n(first + LINE_HEIGHT * (i + 1))}" text-anchor="middle" font-size="${TEXT_SIZE}" fill="#424a53">${xml(line)}</text>`,
    ),
  ];
  return [`  <g class="box" id="${xml(box.id)}">`, shape, ...text, `  </g>`];
}

/** A database: a cylinder, its top an ellipse. */
function storeShape(box, fill) {
  const ry = 7;
  const { x, y, width: w, height: h } = box;
  const body =
    `M${n(x)} ${n(y + ry)} A${n(w / 2)} ${ry} 0 0 1 ${n(x + w)} ${n(y + ry)} ` +
    `L${n(x + w)} ${n(y + h - ry)} A${n(w / 2)} ${ry} 0 0 1 ${n(x)} ${n(y + h - ry)} Z`;
  const rim = `M${n(x)} ${n(y + ry)} A${n(w / 2)} ${ry} 0 0 0 ${n(x + w)} ${n(y + ry)}`;
  return [
    `    <path d="${body}" fill="${fill}" stroke="#24292f" stroke-width="1.2"/>`,
    `    <path d="${rim}" fill="none" stroke="#24292f" stroke-width="1.2"/>`,
  ].join('\n');
}

function drawArrow(arrow, boxes) {
  const from = boxes.get(arrow.from);
  const to = boxes.get(arrow.to);
  if (!from || !to)
    throw new Error(`${SOURCE}: an arrow names no box ${from ? arrow.to : arrow.from}`);
  const startSide = arrow.fromSide ?? facingSide(from, to);
  const endSide = arrow.toSide ?? facingSide(to, from);
  const points = route(
    sidePoint(from, startSide, arrow.fromAt),
    startSide,
    sidePoint(to, endSide, arrow.toAt),
    endSide,
  );
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${n(p.x)} ${n(p.y)}`).join(' ');
  const dash = arrow.dashed ? ' stroke-dasharray="5 4"' : '';
  const colour = arrow.dashed ? '#6e7781' : '#24292f';
  const marker = arrow.dashed ? 'url(#arrow-dashed)' : 'url(#arrow)';
  const lines = [
    `  <path d="${d}" fill="none" stroke="${colour}" stroke-width="1.4"${dash} marker-end="${marker}"/>`,
  ];
  if (arrow.label) {
    const place = labelPlace(points);
    lines.push(
      `  <text x="${n(place.x + (arrow.labelDx ?? 0))}" y="${n(place.y + (arrow.labelDy ?? 0))}" text-anchor="${place.anchor}" font-size="11" fill="#57606a">${xml(arrow.label)}</text>`,
    );
  }
  return lines;
}

/** The picture's SVG text: the same description always gives the same bytes. */
function architectureSvg(spec) {
  const boxes = placeBoxes(spec);
  const margin = spec.grid.margin;
  const inset = spec.grid.groupPadding ?? 12;
  const width = Math.max(...[...boxes.values()].map((b) => b.x + b.width)) + margin;
  const height = Math.max(...[...boxes.values()].map((b) => b.y + b.height)) + margin;
  const head = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" font-family="${xml(FONT)}" role="img" aria-labelledby="title desc">`,
    `  <!-- Generated by scripts/architecture-diagram.mjs from ${SOURCE}: edit that, then run npm run docs:diagram. -->`,
    `  <title id="title">${xml(spec.title)}</title>`,
    `  <desc id="desc">${xml(spec.description)}</desc>`,
    `  <defs>`,
    `    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">`,
    `      <path d="M0 0 L10 5 L0 10 Z" fill="#24292f"/>`,
    `    </marker>`,
    `    <marker id="arrow-dashed" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">`,
    `      <path d="M0 0 L10 5 L0 10 Z" fill="#6e7781"/>`,
    `    </marker>`,
    `  </defs>`,
    `  <rect x="0" y="0" width="${n(width)}" height="${n(height)}" fill="#ffffff"/>`,
    `  <text x="${n(margin)}" y="${n(margin + 16)}" font-size="16" font-weight="700" fill="#24292f">${xml(spec.title)}</text>`,
  ];
  const body = [
    ...(spec.groups ?? []).flatMap((group) => drawGroup(group, boxes, inset)),
    ...spec.arrows.flatMap((arrow) => drawArrow(arrow, boxes)),
    ...[...boxes.values()].flatMap((box) => drawBox(box)),
  ];
  return [...head, ...body, `</svg>`, ''].join('\n');
}

function main(argv) {
  const spec = JSON.parse(readFileSync(join(ROOT, SOURCE), 'utf8'));
  const svg = architectureSvg(spec);
  const target = join(ROOT, TARGET);
  if (argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      // A missing picture is stale too.
    }
    if (committed !== svg) {
      console.error(
        `${TARGET} is stale: it is not what ${SOURCE} draws. Run npm run docs:diagram.`,
      );
      process.exit(1);
    }
    console.log(`${TARGET} is what ${SOURCE} draws.`);
    return;
  }
  writeFileSync(target, svg);
  console.log(`wrote ${TARGET}`);
}

main(process.argv.slice(2));
