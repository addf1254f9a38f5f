/**
 * `npm run api-surface`: the package's public surface as its users import it, read from the build
 * (run `npm run build` first). For each module entry of package.json `exports`: the names its
 * JavaScript exports at run time, the names its type declarations export besides (types only),
 * and the stability each name's doc comment marks in the entry file (README "Library API"):
 * `@public` is stable (changes only in a major version), `@beta` may change in a minor one.
 *
 * It prints the counts per entry; `-- --write` writes docs/api-surface.md, the reference that
 * tests/api/surface.test.ts holds the build to (a name added, removed or re-marked shows in review).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SURFACE_DOC = path.join(ROOT, 'docs/api-surface.md');

export type Stability = 'public' | 'beta';
/** One order wherever the script runs (the default locale may differ). */
const byName = new Intl.Collator('en').compare;
const STABILITY_TAGS: readonly string[] = ['public', 'beta'] satisfies Stability[];

export interface ExportedName {
  name: string;
  /** `value`: present at run time (a function, class, constant); `type`: declarations only. */
  kind: 'value' | 'type';
  /** The stability tag of the name's doc comment in the entry file; undefined when it has none (or several). */
  stability: Stability | undefined;
}

export interface EntrySurface {
  /** The subpath users import: `.`, `./vitest`, ... */
  entry: string;
  /** The names of the built module at run time (`Object.keys(await import(...))`), sorted. */
  runtime: string[];
  /** Every name the entry's type declarations export, sorted by name. */
  names: ExportedName[];
}

interface ModuleEntry {
  entry: string;
  types: string;
  js: string;
}

/** The entries of package.json `exports` that are modules (a `types` and a `default` file), not files like `./schemas/*`. */
export function moduleEntries(root: string = ROOT): ModuleEntry[] {
  const exports = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>;
  return Object.entries(exports).flatMap(([entry, target]) => {
    if (typeof target !== 'object' || target === null) return [];
    const { types, default: js } = target as { types?: string; default?: string };
    return types && js ? [{ entry, types: path.join(root, types), js: path.join(root, js) }] : [];
  });
}

/** The stability tag on the declaration users import: the export specifier of the entry file, or the declaration made there. */
function stabilityOf(symbol: ts.Symbol): Stability | undefined {
  const tags = (symbol.declarations ?? []).flatMap((d) => ts.getJSDocTags(d).map((t) => t.tagName.text)).filter((t) => STABILITY_TAGS.includes(t));
  return tags.length === 1 ? (tags[0] as Stability) : undefined;
}

function kindOf(symbol: ts.Symbol, checker: ts.TypeChecker): ExportedName['kind'] {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return target.flags & ts.SymbolFlags.Value ? 'value' : 'type';
}

/** Every entry's surface: its type declarations read with the compiler, its JavaScript imported. */
export async function readSurface(root: string = ROOT): Promise<EntrySurface[]> {
  const entries = moduleEntries(root);
  const program = ts.createProgram(
    entries.map((e) => e.types),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const surfaces: EntrySurface[] = [];
  for (const { entry, types, js } of entries) {
    const source = program.getSourceFile(types);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry}: no type declarations at ${path.relative(root, types)} (run npm run build)`);
    const names = checker
      .getExportsOfModule(module)
      .map((symbol) => ({ name: symbol.name, kind: kindOf(symbol, checker), stability: stabilityOf(symbol) }))
      .sort((a, b) => byName(a.name, b.name));
    const runtime = Object.keys(await import(pathToFileURL(js).href)).sort(byName);
    surfaces.push({ entry, runtime, names });
  }
  return surfaces;
}

/** `3 values + 5 types = 8`: the runtime names and the names that are types only. */
export function countOf(surface: EntrySurface): { values: number; types: number; total: number } {
  const types = surface.names.filter((n) => n.kind === 'type').length;
  return { values: surface.runtime.length, types, total: surface.runtime.length + types };
}

/** docs/api-surface.md: per entry, each name with its kind and stability. */
export function surfaceDocument(surfaces: EntrySurface[]): string {
  const lines = [
    '# Public surface of the package',
    '',
    'Generated by `npm run build && npm run api-surface -- --write` from the build; tests/api/surface.test.ts',
    'fails when the build exports other names or marks. The convention is in README "Library API":',
    '`public` is stable (a change is a major version), `beta` may change in a minor version. What an',
    'entry does not list is internal, whatever `dist/` holds.',
  ];
  for (const surface of surfaces) {
    const { values, types, total } = countOf(surface);
    lines.push('', `## \`fiat-identity-conformance${surface.entry === '.' ? '' : surface.entry.slice(1)}\``, '');
    lines.push(`${total} names: ${values} at run time, ${types} types only.`, '', '| name | kind | stability |', '| --- | --- | --- |');
    for (const n of surface.names) lines.push(`| \`${n.name}\` | ${n.kind} | ${n.stability ?? '**unmarked**'} |`);
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const surfaces = await readSurface();
  for (const surface of surfaces) {
    const { values, types, total } = countOf(surface);
    console.log(`${surface.entry.padEnd(12)} ${String(total).padStart(4)} names (${values} values, ${types} types)`);
  }
  const all = surfaces.reduce((sum, s) => sum + countOf(s).total, 0);
  console.log(`${'all'.padEnd(12)} ${String(all).padStart(4)} names`);
  if (process.argv.includes('--write')) {
    writeFileSync(SURFACE_DOC, surfaceDocument(surfaces));
    console.log(`wrote ${path.relative(ROOT, SURFACE_DOC)}`);
  }
}
