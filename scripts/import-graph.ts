/**
 * The folder-level import graph of src/: which folder (layer) imports which. Layers must import
 * downward only, so the graph must have no cycle. `npm run import-graph` prints the graph and
 * exits 1 on a cycle; tests/architecture.test.ts runs the same check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Static and dynamic relative imports, type-only ones included: they are dependencies too. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;

/** The TypeScript sources under `dir`, tests left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The top folder of src/ a file belongs to. */
const folderOf = (file: string, src: string): string => path.relative(src, file).split(path.sep)[0];

/** folder -> the other folders it imports from. */
export function folderGraph(src: string = SRC): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const from = folderOf(file, src);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(path.resolve(path.dirname(file), specifier), src);
      if (to !== from && !to.startsWith('..')) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle's folders (strongly connected components of more than one folder), by Tarjan's algorithm. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One line per folder: `engine -> core, rules, schema`. */
export function formatGraph(graph: Map<string, Set<string>>): string[] {
  return [...graph.keys()].sort().map((folder) => `${folder.padEnd(8)} -> ${[...graph.get(folder)!].sort().join(', ') || '(nothing)'}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const graph = folderGraph();
  for (const line of formatGraph(graph)) console.log(line);
  const found = cycles(graph);
  for (const cycle of found) console.log(`cycle: ${cycle.join(' <-> ')}`);
  console.log(found.length ? `${found.length} cycle(s)` : 'no cycle');
  process.exitCode = found.length ? 1 : 0;
}
