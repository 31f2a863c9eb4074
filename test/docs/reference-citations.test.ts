/**
 * Citations of the reference documents in docs/reference/ resolve. A citation is the document's path
 * followed by a list of sections, decisions, rules or examples, e.g. `docs/reference/wire.md §7.2, §7.3, R41`
 * or `docs/reference/domain-rules.md §1.3.1–1.3.3, §7 D-10 (a)` (the list may continue on the next comment
 * line); inside docs/reference/ the short form `wire.md §4.4` is used. Each item must name a numbered
 * heading (`## 7.6 …`) or a labelled heading or list item (`### D-3 …`, `| **R41** |`, `- **E5**`) of that
 * document. Nothing may cite the documents by the names they have outside the repository.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../repo.js';

const ROOT = REPO;
const SELF = 'test/docs/reference-citations.test.ts';
const REFERENCE_DIR = 'docs/reference';
const SCANNED = ['src', 'test', 'docs', 'scripts', 'bench', 'README.md'];
const TEXT_FILE = /\.(ts|mts|cts|js|mjs|cjs|json|md|sql|txt|ya?ml|html|css)$/;

/** Files under the scanned roots, relative to the repository root (the checker's own file left out). */
function scannedFiles(): string[] {
  const walk = (rel: string): string[] => {
    const stat = statSync(join(ROOT, rel), { throwIfNoEntry: false });
    if (!stat) return [];
    if (stat.isDirectory()) return readdirSync(join(ROOT, rel)).flatMap((name) => walk(join(rel, name)));
    return TEXT_FILE.test(rel) && rel !== SELF ? [rel] : [];
  };
  return SCANNED.flatMap(walk).map((p) => p.split('\\').join('/'));
}

/** The labels a reference document defines: heading numbers and bold D-, R- and E- labels. */
function labelsOf(markdown: string): { labels: Set<string>; duplicates: string[] } {
  const labels = new Set<string>();
  const duplicates: string[] = [];
  const add = (label: string) => (labels.has(label) ? duplicates.push(label) : labels.add(label));
  for (const m of markdown.matchAll(/^#{1,6} (\d+(?:\.\d+)*)\.? /gm)) add(m[1]);
  for (const m of markdown.matchAll(/^#{1,6} ([DRE]-?\d+) /gm)) add(m[1]);
  for (const m of markdown.matchAll(/^\s*(?:[-*]|\|) \*\*([DRE]-?\d+)\*\*/gm)) add(m[1]);
  return { labels, duplicates };
}

// One item of a citation's list, and what may separate items (a comma, a semicolon, "and", or a line
// break followed by a comment's leading `*` or `//`).
const SEP = String.raw`(?:\s*(?:[,;]|\band\b)?[ \t]*(?:\r?\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*)?)`;
const ITEM = String.raw`(?:§[ ]?\d+(?:\.\d+)*(?:[ ]?[–-][ ]?§?\d+(?:\.\d+)*)?|D-\d+(?:[ ]\([a-c]\))?|(?:rules? )?[RE]\d+(?:[–-][RE]\d+)?)`;
const CITATION = new RegExp(
  String.raw`(?<![\w/.-])(docs\/reference\/)?(wire|domain-rules|api|design)\.md((?:${SEP}${ITEM})+)`,
  'g',
);

interface Citation {
  file: string;
  line: number;
  doc: string;
  text: string;
  items: string[];
  shortForm: boolean;
}

/** Every citation in a text, with the labels it names (range ends both count). */
function citationsIn(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const list = m[3];
    const items: string[] = [];
    for (const it of list.matchAll(new RegExp(ITEM, 'g'))) {
      const s = it[0].replace(/^rules? /, '').replace(/ \([a-c]\)$/, '');
      const range = /^§ ?(\d+(?:\.\d+)*)(?: ?[–-] ?§?(\d+(?:\.\d+)*))?$/.exec(s);
      if (range) items.push(...[range[1], range[2]].filter((x): x is string => !!x));
      else items.push(...s.split(/[–-](?=[RE]\d)/));
    }
    out.push({
      file,
      line: text.slice(0, m.index).split('\n').length,
      doc: `${REFERENCE_DIR}/${m[2]}.md`,
      text: `${m[0].split('\n')[0]}${m[0].includes('\n') ? ' …' : ''}`,
      items,
      shortForm: !m[1],
    });
  }
  return out;
}

/** Problems with the citations of a set of files, as `file:line: …` lines. */
function unresolved(files: Map<string, string>, docs: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    for (const c of citationsIn(file, text)) {
      if (c.shortForm && !file.startsWith(`${REFERENCE_DIR}/`)) {
        problems.push(`${file}:${c.line}: "${c.text}" must name the path, ${c.doc}`);
        continue;
      }
      const labels = docs.get(c.doc);
      if (!labels) {
        problems.push(`${file}:${c.line}: "${c.text}" cites ${c.doc}, which does not exist`);
        continue;
      }
      for (const item of c.items) {
        if (!labels.has(item))
          problems.push(`${file}:${c.line}: "${c.text}": ${c.doc} has no ${/^\d/.test(item) ? '§' : ''}${item}`);
      }
    }
  }
  return problems;
}

// The documents' names outside the repository, as a citation would use them, and paths to them.
const OUTSIDE = [
  String.raw`(?<![\w/.-])(?:wire-format|api-spec|DESIGN)(?:\.md)?(?=(?:\s|\*|\/\/)*(?:§|D-\d|R\d|,\s*[A-Z]))`,
  String.raw`(?<![\w/.-])domain-rules(?!\.md)(?=(?:\s|\*|\/\/)*(?:§|D-\d|,\s*[A-Z]))`,
  String.raw`shared\/(?:spec\/|DESIGN\b)`,
];

/** Lines that still cite a document by its outside name. */
function outsideCitations(files: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    for (const m of text.matchAll(new RegExp(OUTSIDE.join('|'), 'g'))) {
      const line = text.slice(0, m.index).split('\n').length;
      problems.push(
        `${file}:${line}: "${text.split('\n')[line - 1].trim().slice(0, 100)}" cites ${m[0]} outside the repository`,
      );
    }
  }
  return problems;
}

function load() {
  const files = new Map(scannedFiles().map((f) => [f, readFileSync(join(ROOT, f), 'utf8')] as const));
  const docs = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    if (file.startsWith(`${REFERENCE_DIR}/`) && file.endsWith('.md')) docs.set(file, labelsOf(text).labels);
  }
  return { files, docs };
}

test('the checker finds a citation list across comment lines and reports what does not resolve', () => {
  const sample = [
    '/** Driving periods (docs/reference/domain-rules.md §4.1, §2.2,',
    ' * §7 D-10 (a)); windows (docs/reference/wire.md §3.3–3.9 and §9, rules R2–R60). */',
    '// see wire.md §4.4',
  ].join('\n');
  const cites = citationsIn('src/x.ts', sample);
  assert.deepEqual(
    cites.map((c) => [c.line, c.doc, c.items]),
    [
      [1, 'docs/reference/domain-rules.md', ['4.1', '2.2', '7', 'D-10']],
      [2, 'docs/reference/wire.md', ['3.3', '3.9', '9', 'R2', 'R60']],
      [3, 'docs/reference/wire.md', ['4.4']],
    ],
  );
  const docs = new Map([
    ['docs/reference/domain-rules.md', labelsOf('## 2.2 A\n### 4.1 B\n## 7 C\n### D-10 D\n').labels],
    ['docs/reference/wire.md', labelsOf('### 3.3 A\n## 9 B\n| **R2** | x |\n### 4.4 C\n').labels],
  ]);
  assert.deepEqual(unresolved(new Map([['src/x.ts', sample]]), docs), [
    'src/x.ts:2: "docs/reference/wire.md §3.3–3.9 and §9, rules R2–R60": docs/reference/wire.md has no §3.9',
    'src/x.ts:2: "docs/reference/wire.md §3.3–3.9 and §9, rules R2–R60": docs/reference/wire.md has no R60',
    'src/x.ts:3: "wire.md §4.4" must name the path, docs/reference/wire.md',
  ]);
  const outside = ['wire', 'format'].join('-');
  assert.equal(outsideCitations(new Map([['a.md', `(${outside} §7.6)\n(domain-rules\n * §6.4)\n`]])).length, 2);
  assert.deepEqual(outsideCitations(new Map([['a.md', 'the docs/reference/domain-rules.md §6.4 rule']])), []);
});

test('every citation of a reference document names a section, decision, rule or example it has', () => {
  const { files, docs } = load();
  assert.deepEqual([...docs.keys()].sort(), [
    'docs/reference/api.md',
    'docs/reference/design.md',
    'docs/reference/domain-rules.md',
    'docs/reference/wire.md',
  ]);
  const count = [...files].reduce((n, [file, text]) => n + citationsIn(file, text).length, 0);
  assert.ok(count > 0, 'no citation found: the scan or the pattern is broken');
  assert.deepEqual(unresolved(files, docs), []);
});

test('no file cites the documents by their names outside the repository', () => {
  assert.deepEqual(outsideCitations(load().files), []);
});

test('each reference document says how it is cited, and defines each label once', () => {
  for (const [file, text] of load().files) {
    if (!file.startsWith(`${REFERENCE_DIR}/`) || !file.endsWith('.md')) continue;
    const intro = text.split('\n## ')[0];
    assert.match(intro, new RegExp(`\`${file.replace(/[.]/g, '\\.')} §`), `${file} explains its citation form`);
    assert.deepEqual(labelsOf(text).duplicates, [], `${file} defines a label twice`);
  }
});
