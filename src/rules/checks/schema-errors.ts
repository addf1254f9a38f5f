/**
 * The schema check for a whole response, minus the errors that a more specific rule owns, so
 * that one defect fails one rule (a lowercase status fails the enum rule, not also the schema rule).
 */
import type { Check, Problem } from '../check.ts';
import { pass } from '../check.ts';
import type { Operation, RuleId } from '../../core/catalogue.ts';
import { registry } from '../../schema/registry.ts';
import { isObject, successBody, isOperation } from './exchange-facts.ts';

export function schemaCheck(rule: RuleId, operation: Operation, schemaName: string, ownedElsewhere: RegExp[]): Check {
  return {
    rule,
    judge(e) {
      if (!isOperation(e, operation)) return null;
      if (e.testCase.mode !== 'invalid' && e.response && e.response.status >= 200 && e.response.status < 300) {
        if (!e.response.json) return [{ message: `the success response is not JSON: ${e.response.rawBody.slice(0, 120)}` }];
        // Every other check reads an object; null or an array would leave them all silent.
        if (!isObject(e.response.body)) return [{ message: `the success response is JSON but not an object: ${e.response.rawBody.slice(0, 120)}` }];
      }
      const body = successBody(e);
      if (!body) return null;
      const problems: Problem[] = registry()
        .validate(schemaName, body)
        .filter((err) => {
          const where = `${err.instancePath}|${err.keyword}|${String(err.params?.missingProperty ?? '')}`;
          return !ownedElsewhere.some((pattern) => pattern.test(where));
        })
        .map((err) => ({
          message: `${err.instancePath || '(root)'} ${err.message}${err.section ? ` [section ${err.section}]` : ''}`,
          instancePath: err.instancePath,
        }));
      return problems.length ? problems : pass;
    },
  };
}
