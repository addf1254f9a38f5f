/** A rule's failures shown simplest first, and a headline that names the cause, not the random case. */
import { describe, expect, it } from 'vitest';
import { failureCause, simplestFirst } from '../../../src/report/model/simplest-first.ts';
import type { ReportFailure } from '../../../src/report/model/model.ts';
import { failuresSection } from '../../../src/report/files/html-failures.ts';
import { sampleReport } from '../sample-report.ts';

const base = (): ReportFailure => structuredClone(sampleReport().rules.find((r) => r.failures.length)!.failures[0]);

function failure(label: string, firstName: string): ReportFailure {
  const f = base();
  f.case.label = label;
  delete f.path;
  f.message = `${label}: a valid request was not accepted (HTTP 422)`;
  f.request = { ...f.request, body: { person_details: { first_name: firstName } } };
  return f;
}

describe('simplest first', () => {
  const random = failure(`random name ${'x'.repeat(254)}`, 'x'.repeat(254));
  const sample = failure('the document\u2019s sample, with its long address and names', 'Ada');
  const shrunk = failure('random name "a"', 'a');
  shrunk.path = '3:0';
  const drawn = failure('random name "ab"', 'ab');

  it('puts the fixed and shrunk cases of each finding first, then the random ones shortest first; findings in the order found', () => {
    // The document's sample and the shrunk case in the order found, then the random cases shortest first.
    expect(simplestFirst([random, sample, shrunk]).map((f) => f.case.label)).toEqual([sample.case.label, shrunk.case.label, random.case.label]);
    expect(simplestFirst([random, drawn]).map((f) => f.case.label)).toEqual([drawn.case.label, random.case.label]);
    const twin = failure('twin', 'Ada');
    expect(simplestFirst([sample, twin])).toEqual([sample, twin]);
    const other = { ...failure('other', 'Ada Lovelace Hopper'), message: 'other: created_at has no offset' };
    expect(simplestFirst([other, random, shrunk]).map((f) => f.case.label)).toEqual(['other', shrunk.case.label, random.case.label]);
    expect(simplestFirst([random, other, sample]).map((f) => f.case.label)).toEqual([sample.case.label, random.case.label, 'other']);
  });

  it('gives the cause as the headline, not the label of the case that carried it', () => {
    expect(failureCause(random)).toBe('a valid request was not accepted (HTTP 422)');
    const bare = { ...sample, message: 'the document\u2019s sample' };
    expect(failureCause(bare)).toBe('the document\u2019s sample');
    const report = sampleReport();
    const rule = report.rules.find((r) => r.failures.length)!;
    rule.failures = [random];
    const headline = /<span class="first-message bidi">([^<]*)<\/span>/.exec(failuresSection(report))?.[1];
    expect(headline).toBe('a valid request was not accepted (HTTP 422)');
  });
});
