/**
 * `npm run rule-id-mentions`: where src/ names a rule id in code (a string literal or template
 * text equal to a catalogue id; comments do not count). A rule's knowledge lives in src/rules
 * (and its catalogue entry in src/core, its fault in src/server): tests/architecture.test.ts keeps
 * every other folder free of rule ids, so the engine, run and CLI name no rule.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { RULES } from '../src/core/catalogue.ts';
import { SRC, sourceFiles } from './import-graph.ts';

/** The folders of src/ where rule ids belong. */
export const RULE_FOLDERS = ['core', 'rules', 'server'];

export interface RuleIdMention {
  /** `src/…/file.ts:line` */
  where: string;
  id: string;
}

const IDS: ReadonlySet<string> = new Set(RULES.map((r) => r.id));

/** Every rule id named in the code of the files under `dir`. */
export function ruleIdMentions(dir: string = SRC): RuleIdMention[] {
  const found: RuleIdMention[] = [];
  for (const file of sourceFiles(dir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && IDS.has(node.text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ where: `${path.relative(path.dirname(dir), file)}:${line}`, id: node.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The mentions outside the folders where rule ids belong. */
export const misplacedRuleIds = (dir: string = SRC): RuleIdMention[] =>
  ruleIdMentions(dir).filter((m) => !RULE_FOLDERS.some((folder) => m.where.startsWith(`${path.basename(dir)}/${folder}/`)));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const all = ruleIdMentions();
  const files = (list: RuleIdMention[]) => new Set(list.map((m) => m.where.split(':')[0])).size;
  const misplaced = misplacedRuleIds();
  console.log(
    `${all.length} rule id mentions in ${files(all)} files of src/; outside ${RULE_FOLDERS.map((f) => `src/${f}`).join(', ')}: ${misplaced.length} in ${files(misplaced)} files`,
  );
  for (const m of misplaced) console.log(`  ${m.where}  ${m.id}`);
}
