/**
 * `npm run longest-functions [-- N]`: the N (default 10) longest functions of src/, in lines from
 * the first line of their declaration to the closing brace, with file, line and name.
 * tests/architecture.test.ts keeps every function within MAX_FUNCTION_LINES.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { SRC, sourceFiles } from './import-graph.ts';

/** A function longer than this no longer reads as one idea: split it. */
export const MAX_FUNCTION_LINES = 120;

export interface FunctionLength {
  lines: number;
  /** `src/…/file.ts:line name` */
  where: string;
}

/** The name a function is known by: its own, or the variable or property it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Every function of the files under `dir` with its length, longest first. */
export function functionLengths(dir: string = SRC): FunctionLength[] {
  const found: FunctionLength[] = [];
  for (const file of sourceFiles(dir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const where = `${path.relative(path.dirname(SRC), file)}:${first + 1} ${nameOf(node as ts.FunctionLikeDeclaration)}`;
        found.push({ lines: last - first + 1, where });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? 10);
  for (const { lines, where } of functionLengths().slice(0, count)) console.log(`${String(lines).padStart(4)}  ${where}`);
}
