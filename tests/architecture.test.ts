/** The folders of src/ are layers that import downward only (docs/design.md section 3). */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cycles, folderGraph, formatGraph, SRC, sourceFiles } from '../scripts/import-graph.ts';
import { MAX_FUNCTION_LINES, functionLengths } from '../scripts/longest-functions.ts';
import { misplacedRuleIds, RULE_FOLDERS } from '../scripts/rule-id-mentions.ts';

/** Bottom to top (api: the library's entry points, beside the CLI). The embedded server (an independent oracle) uses core and schema only. */
const LAYERS = ['core', 'schema', 'rules', 'engine', 'report', 'run', 'api', 'cli'];
const SERVER_MAY_IMPORT = ['core', 'schema'];
/** Layers that may use the embedded server: report (its reading flags), run (starts it), api (the library's), cli (serve). */
const SERVER_USERS = ['report', 'run', 'api', 'cli'];

describe('import graph of src/', () => {
  const graph = folderGraph();

  it('has no cycle', () => {
    expect(cycles(graph), formatGraph(graph).join('\n')).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const looped = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(looped)).toEqual([['a', 'b', 'c']]);
  });

  it('every layer imports only layers below it, and the server only core and schema', () => {
    expect([...graph.keys()].sort()).toEqual([...LAYERS, 'server'].sort());
    for (const [folder, imports] of graph) {
      const below = LAYERS.slice(0, LAYERS.indexOf(folder));
      const allowed = folder === 'server' ? SERVER_MAY_IMPORT : SERVER_USERS.includes(folder) ? [...below, 'server'] : below;
      const upward = [...imports].filter((to) => !allowed.includes(to));
      expect(upward, `${folder} imports ${upward.join(', ')}`).toEqual([]);
    }
  });
});

/** src/report/ by kind, bottom to top: the report model (and what derives from it), the files written, the terminal, comparisons of reports. */
const REPORT_LAYERS = ['model', 'files', 'terminal', 'compare'];

describe('import graph of src/report/', () => {
  const graph = folderGraph(path.join(SRC, 'report'));

  it('has only the sub-folders of its kinds, each importing only the kinds below it', () => {
    expect([...graph.keys()].sort()).toEqual([...REPORT_LAYERS].sort());
    for (const [folder, imports] of graph) {
      const below = REPORT_LAYERS.slice(0, REPORT_LAYERS.indexOf(folder));
      const upward = [...imports].filter((to) => !below.includes(to));
      expect(upward, `report/${folder} imports report/${upward.join(', report/')}`).toEqual([]);
    }
  });
});

describe('functions of src/', () => {
  it(`are at most ${MAX_FUNCTION_LINES} lines long (npm run longest-functions lists the longest)`, () => {
    const longer = functionLengths().filter((f) => f.lines > MAX_FUNCTION_LINES);
    expect(longer.map((f) => `${f.where}: ${f.lines} lines`)).toEqual([]);
  });

  it('are measured from declaration to closing brace (the bound can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'longest-'));
    try {
      const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
      writeFileSync(path.join(dir, 'long.ts'), `export function tooLong() {\n${body}\n}\nexport const short = () => 1;\n`);
      const [longest, next] = functionLengths(dir);
      expect(longest).toMatchObject({ lines: MAX_FUNCTION_LINES + 2 });
      expect(longest.where).toMatch(/long\.ts:1 tooLong$/);
      expect(next).toMatchObject({ lines: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rule ids in src/', () => {
  it(`are named only in ${RULE_FOLDERS.map((f) => `src/${f}`).join(', ')}: the engine, run and CLI name no rule (npm run rule-id-mentions)`, () => {
    expect(misplacedRuleIds().map((m) => `${m.where} ${m.id}`)).toEqual([]);
  });

  it('are found in code, not in comments (the check can fail)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'src-'));
    try {
      for (const folder of ['engine', 'rules']) mkdirSync(path.join(dir, folder));
      writeFileSync(
        path.join(dir, 'engine', 'a.ts'),
        "// fa.valid-accepted in a comment\nexport const rule = 'fa.valid-accepted';\nexport const t = `id.auth-401`;\n",
      );
      writeFileSync(path.join(dir, 'rules', 'b.ts'), "export const rule = 'fa.valid-accepted';\n");
      const base = path.basename(dir);
      expect(misplacedRuleIds(dir)).toEqual([
        { where: `${base}/engine/a.ts:2`, id: 'fa.valid-accepted' },
        { where: `${base}/engine/a.ts:3`, id: 'id.auth-401' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Test folders that are about the whole product, not one folder of src/ (docs/design.md section 3). */
const CROSS_CUTTING = ['browser', 'ci', 'docs', 'fixtures', 'foreign', 'hostile', 'scripts', 'setup', 'report/xsd'];
const TESTS = path.join(path.dirname(SRC), 'tests');

describe('tests/', () => {
  const relative = (dir: string, file: string) => path.relative(dir, file).split(path.sep).join('/');
  const crossCutting = (rel: string) => CROSS_CUTTING.some((c) => rel === c || rel.startsWith(`${c}/`));
  const testFiles = (readdirSync(TESTS, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/')).filter((f) => f.endsWith('.ts'));

  it('mirror the folders of src/: every folder of tests/ is one of src/ or says what it is about', () => {
    const folders = [...new Set(testFiles.map((f) => path.posix.dirname(f)))].filter((d) => d !== '.');
    expect(folders.filter((d) => !crossCutting(d) && !existsSync(path.join(SRC, d)))).toEqual([]);
  });

  it('a test named after a module of its layer sits where the module sits', () => {
    const modules = sourceFiles(SRC).map((f) => relative(SRC, f));
    const misplaced = testFiles
      .filter((t) => t.endsWith('.test.ts') && !crossCutting(t))
      .flatMap((t) => {
        const name = path.basename(t, '.test.ts');
        const layer = t.split('/')[0];
        const same = modules.filter((m) => m.startsWith(`${layer}/`) && path.basename(m, '.ts') === name);
        return same.length === 1 && same[0] !== t.replace(/\.test\.ts$/, '.ts') ? [`tests/${t} tests src/${same[0]}`] : [];
      });
    expect(misplaced).toEqual([]);
  });
});
